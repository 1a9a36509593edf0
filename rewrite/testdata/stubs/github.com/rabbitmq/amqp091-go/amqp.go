// Package amqp091 is a stub of github.com/rabbitmq/amqp091-go for rewrite tests.
package amqp091

import "context"

type Table map[string]interface{}

type Publishing struct {
	Headers     Table
	ContentType string
	MessageId   string
	Type        string
	Body        []byte
}

type Channel struct{}

func (ch *Channel) PublishWithContext(ctx context.Context, exchange, key string, mandatory, immediate bool, msg Publishing) error {
	return nil
}

func (ch *Channel) Publish(exchange, key string, mandatory, immediate bool, msg Publishing) error {
	return nil
}
