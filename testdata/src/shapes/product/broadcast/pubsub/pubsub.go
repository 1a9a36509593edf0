// Package pubsub is a team's own Pub/Sub abstraction with a Redis backend
// and an in-memory one (harness's pubsub package has this shape).
package pubsub

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type PubSub interface {
	Publish(ctx context.Context, topic string, payload []byte) error
	Subscribe(ctx context.Context, topic string, handler func(payload []byte) error)
}

type Redis struct {
	client redis.UniversalClient
	subs   map[string][]func([]byte) error
}

func (r *Redis) Publish(ctx context.Context, topic string, payload []byte) error {
	return r.client.Publish(ctx, topic, payload).Err()
}

// Subscribe keeps the handler; a reader goroutine started elsewhere runs it.
func (r *Redis) Subscribe(_ context.Context, topic string, handler func(payload []byte) error) {
	r.subs[topic] = append(r.subs[topic], handler)
}

type Memory struct {
	subs map[string][]func([]byte) error
}

func (m *Memory) Publish(_ context.Context, topic string, payload []byte) error {
	for _, h := range m.subs[topic] {
		_ = h(payload)
	}
	return nil
}

func (m *Memory) Subscribe(_ context.Context, topic string, handler func(payload []byte) error) {
	m.subs[topic] = append(m.subs[topic], handler)
}
