// Package jetstream is a stub of github.com/nats-io/nats.go/jetstream for fixtures.
package jetstream

import "github.com/nats-io/nats.go"

type Msg interface {
	Data() []byte
	Headers() nats.Header
	Subject() string
	Ack() error
}

type MessageHandler func(msg Msg)

type PullConsumeOpt interface{}

type ConsumeContext interface{ Stop() }

type FetchOpt interface{}

type MessageBatch interface{ Messages() <-chan Msg }

type Consumer interface {
	Consume(handler MessageHandler, opts ...PullConsumeOpt) (ConsumeContext, error)
	Fetch(batch int, opts ...FetchOpt) (MessageBatch, error)
}
