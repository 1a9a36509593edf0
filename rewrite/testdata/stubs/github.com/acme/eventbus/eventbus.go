// Package eventbus stubs a broker abstraction in a dependency module that
// publishes over AMQP in code fix has no syntax for and no catalog row
// describes.
package eventbus

import (
	"context"

	amqp091 "github.com/rabbitmq/amqp091-go"
)

type Client struct{ ch *amqp091.Channel }

func (c *Client) Send(ctx context.Context, topic string, data []byte) error {
	return c.ch.PublishWithContext(ctx, "", topic, false, false, amqp091.Publishing{Body: data})
}
