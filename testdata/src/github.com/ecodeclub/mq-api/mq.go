// Package mq stubs the message-queue abstraction library that real services
// import from another module: an interface the service calls, whose Kafka
// implementation (package kafka) lives in the library too.
package mq

import "context"

type Message struct {
	Key   []byte
	Value []byte
}

type ProducerResult struct{}

type Producer interface {
	Produce(ctx context.Context, m *Message) (*ProducerResult, error)
}

type MQ interface {
	Producer(topic string) (Producer, error)
}
