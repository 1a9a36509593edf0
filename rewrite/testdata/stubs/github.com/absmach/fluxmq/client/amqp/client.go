// Package amqp stubs FluxMQ's AMQP 0.9.1 client (supermq's event store and
// messaging publish through it); its publishes are catalog rows.
package amqp

import (
	"context"

	amqp091 "github.com/rabbitmq/amqp091-go"
)

type Client struct{ ch *amqp091.Channel }

func (c *Client) Publish(topic string, data []byte) error {
	return c.ch.Publish("", topic, false, false, amqp091.Publishing{Body: data})
}

func (c *Client) PublishContext(ctx context.Context, topic string, data []byte) error {
	return c.ch.PublishWithContext(ctx, "", topic, false, false, amqp091.Publishing{Body: data})
}

type PublishOptions struct {
	Topic      string
	Exchange   string
	RoutingKey string
	Payload    []byte
	Properties map[string]string
	Mandatory  bool
	Immediate  bool
}

func (c *Client) PublishWithOptionsContext(ctx context.Context, opts *PublishOptions) error {
	return c.ch.PublishWithContext(ctx, "", opts.Topic, false, false, amqp091.Publishing{Body: opts.Payload})
}
