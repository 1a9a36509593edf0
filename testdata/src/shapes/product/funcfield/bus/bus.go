// Package bus is an event bus over NATS whose publish function is chosen
// when it is built (core NATS, or JetStream through a closure) and kept in
// a field; a call of that field is the publish.
package bus

import (
	"context"
	"encoding/json"

	"github.com/nats-io/nats.go"
)

type Publisher struct {
	publish func(subj string, data []byte) error
	// trace is a hook given by the caller (a logger): no broker
	trace func(msg string)
}

func New(conn *nats.Conn, jetstream bool, trace func(string)) (*Publisher, error) {
	publish := conn.Publish
	if jetstream {
		js, err := conn.JetStream()
		if err != nil {
			return nil, err
		}
		publish = func(subj string, data []byte) error {
			_, err := js.Publish(subj, data)
			return err
		}
	}
	return &Publisher{publish: publish, trace: trace}, nil
}

func (p *Publisher) Publish(ctx context.Context, subject string, event any) error {
	data, err := json.Marshal(event)
	if err != nil {
		return err
	}
	return p.PublishData(ctx, subject, data)
}

func (p *Publisher) PublishData(ctx context.Context, subject string, data []byte) error {
	p.trace("publishing " + subject)
	return p.publish(subject, data)
}

// Tracer only traces through its hook.
func (p *Publisher) Tracer(msg string) { p.trace(msg) }
