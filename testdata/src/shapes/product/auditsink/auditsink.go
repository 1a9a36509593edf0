// Package auditsink is an audit library's shape (sapcc/go-bits audittools):
// the constructor makes one buffered channel, gives it to a trail whose
// goroutine batches the events and publishes them to RabbitMQ on a ticker,
// and to the auditor whose Record sends on it. A handler that writes and
// then records an audit event publishes after its write (CLI: the channel
// is followed from the constructor's local into both fields).
package auditsink

import (
	"context"
	"database/sql"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

type Event struct{ Action, Target string }

type Auditor interface{ Record(e Event) }

type trail struct {
	sink chan Event
	ch   *amqp.Channel
}

func (t trail) commit(ctx context.Context) {
	ticker := time.NewTicker(time.Minute)
	var pending []Event
	for {
		select {
		case e := <-t.sink:
			pending = append(pending, e)
		case <-ticker.C:
			for len(pending) > 0 {
				t.ch.PublishWithContext(ctx, "", "audit", false, false, amqp.Publishing{Body: []byte(pending[0].Action)})
				pending = pending[1:]
			}
		}
	}
}

type standardAuditor struct{ sink chan Event }

func (a *standardAuditor) Record(e Event) { a.sink <- e }

func NewAuditor(ctx context.Context, ch *amqp.Channel) Auditor {
	events := make(chan Event, 20)
	go trail{sink: events, ch: ch}.commit(ctx)
	return &standardAuditor{sink: events}
}

type handler struct {
	db      *sql.DB
	auditor Auditor
}

func (h handler) PutResource(ctx context.Context, id string) error {
	if _, err := h.db.ExecContext(ctx, "UPDATE resources SET threshold = 80 WHERE id = $1", id); err != nil {
		return err
	}
	h.auditor.Record(Event{Action: "update", Target: id})
	return nil
}
