// Package streaming has the shape of a shared library module's event
// streaming: a Stream hands out named Publisher interfaces, and the NATS
// implementation publishes a batch of events concurrently in a bounded
// worker pool, waiting for all of them before it returns.
package streaming

import (
	"context"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/sourcegraph/conc/pool"
)

type Event struct {
	ID      string
	Subject string
	Data    []byte
}

type Publisher interface {
	Pub(ctx context.Context, events map[string]*Event) map[string]error
}

type Stream interface {
	Publisher(name string) (Publisher, error)
}

type natsStream struct{ js jetstream.JetStream }

func New(js jetstream.JetStream) Stream { return &natsStream{js: js} }

func (s *natsStream) Publisher(name string) (Publisher, error) {
	return &NatsPublisher{name: name, js: s.js, limit: 8}, nil
}

type NatsPublisher struct {
	name  string
	limit int
	js    jetstream.JetStream
}

func (p *NatsPublisher) Pub(ctx context.Context, events map[string]*Event) map[string]error {
	errs := map[string]error{}
	wp := pool.New().WithContext(ctx).WithMaxGoroutines(p.limit)
	for id, ev := range events {
		id, msg := id, &nats.Msg{Subject: ev.Subject, Data: ev.Data}
		wp.Go(func(ctx context.Context) error {
			if _, err := p.js.PublishMsg(ctx, msg); err != nil {
				errs[id] = err
			}
			return nil
		})
	}
	_ = wp.Wait()
	return errs
}
