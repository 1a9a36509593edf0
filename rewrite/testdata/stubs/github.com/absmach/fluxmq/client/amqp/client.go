// Package amqp stubs a broker abstraction in a dependency module that
// publishes over AMQP (the FluxMQ client supermq's event store uses).
package amqp

import (
	"context"

	amqp091 "github.com/rabbitmq/amqp091-go"
)

type Client struct{ ch *amqp091.Channel }

func (c *Client) PublishContext(ctx context.Context, topic string, data []byte) error {
	return c.ch.PublishWithContext(ctx, "", topic, false, false, amqp091.Publishing{Body: data})
}
