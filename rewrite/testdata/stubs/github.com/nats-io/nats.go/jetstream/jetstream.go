// Package jetstream is a stub of github.com/nats-io/nats.go/jetstream for rewrite tests.
package jetstream

import (
	"context"

	"github.com/nats-io/nats.go"
)

type PubAck struct {
	Stream   string
	Sequence uint64
}

type PublishOpt func() error

type Publisher interface {
	Publish(ctx context.Context, subject string, payload []byte, opts ...PublishOpt) (*PubAck, error)
	PublishMsg(ctx context.Context, msg *nats.Msg, opts ...PublishOpt) (*PubAck, error)
}

type JetStream interface {
	Publisher
}
