package jetstream

import (
	"context"

	"github.com/nats-io/nats.go"
)

type PublishOpt interface{}
type PubAck struct{}
type PubAckFuture interface{}
type Msg interface {
	Data() []byte
	Ack() error
}
type MessageHandler func(msg Msg)
type ConsumeContext interface{ Stop() }
type MessageBatch interface{ Messages() <-chan Msg }

type Publisher interface {
	Publish(ctx context.Context, subject string, payload []byte, opts ...PublishOpt) (*PubAck, error)
	PublishMsg(ctx context.Context, msg *nats.Msg, opts ...PublishOpt) (*PubAck, error)
	PublishAsync(subject string, payload []byte, opts ...PublishOpt) (PubAckFuture, error)
	PublishMsgAsync(msg *nats.Msg, opts ...PublishOpt) (PubAckFuture, error)
}
type JetStream interface {
	Publisher
	Stream(ctx context.Context, name string) (Stream, error)
}
type Stream interface {
	Consumer(ctx context.Context, name string) (Consumer, error)
}
type Consumer interface {
	Consume(handler MessageHandler, opts ...any) (ConsumeContext, error)
	Fetch(batch int, opts ...any) (MessageBatch, error)
	Messages(opts ...any) (any, error)
}

func New(nc *nats.Conn) (JetStream, error) { return nil, nil }
