// Package genericport has an event-driven sample's shape (CLI): generic
// message ports (Publisher[O], Stream[O, I] embedding it) instantiated
// with concrete types, implemented by plain types: go/types names the
// generic method at the call, the program's implementations implement
// the instantiation.
package genericport

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

type Publisher[O any] interface {
	Publish(ctx context.Context, topic string, o O) error
}

type Stream[O any, I any] interface {
	Publisher[O]
	Subscribe(topic string, handler func(I) error) error
}

type Raw struct{ Data []byte }

type Event struct{ Name string }

// jsStream is the JetStream-backed Stream[Raw, Raw].
type jsStream struct{ nc *nats.Conn }

func (s jsStream) Publish(ctx context.Context, topic string, m Raw) error {
	return s.nc.Publish(topic, m.Data)
}

func (s jsStream) Subscribe(topic string, handler func(Raw) error) error { return nil }

// eventStream encodes events onto a raw stream.
type eventStream struct{ stream Stream[Raw, Raw] }

func (s eventStream) Publish(ctx context.Context, topic string, e Event) error {
	return s.stream.Publish(ctx, topic, Raw{Data: []byte(e.Name)})
}

type Customers struct {
	db  *sql.DB
	pub Publisher[Event]
}

// Register inserts, then publishes through the ports (CLI).
func (c *Customers) Register(ctx context.Context, id string) error {
	if _, err := c.db.ExecContext(ctx, "INSERT INTO customers (id) VALUES ($1)", id); err != nil {
		return err
	}
	return c.pub.Publish(ctx, "customers.registered", Event{Name: id})
}
