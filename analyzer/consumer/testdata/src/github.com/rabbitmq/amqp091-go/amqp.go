// Package amqp091 is a stub of github.com/rabbitmq/amqp091-go for fixtures.
package amqp091

import "context"

type Table map[string]interface{}

type Delivery struct {
	MessageId string
	Headers   Table
	Body      []byte
}

func (d Delivery) Ack(multiple bool) error { return nil }

type Channel struct{}

func (ch *Channel) Consume(queue, consumer string, autoAck, exclusive, noLocal, noWait bool, args Table) (<-chan Delivery, error) {
	return nil, nil
}

func (ch *Channel) ConsumeWithContext(ctx context.Context, queue, consumer string, autoAck, exclusive, noLocal, noWait bool, args Table) (<-chan Delivery, error) {
	return nil, nil
}
