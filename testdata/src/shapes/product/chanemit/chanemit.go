// Package chanemit queues events on a buffered channel that a goroutine,
// started when the emitter is built, drains into its handlers; the NATS
// handler publishes (Bnei-Baruch/mdb's BufferedEmitter). A request that
// commits and then emits publishes after the commit: the send is the
// publish (CLI: the drain is found program-wide). A channel drained only
// into a log, and a signal channel, are no publish.
package chanemit

import (
	"context"
	"database/sql"
	"log"

	"github.com/nats-io/nats.go"
)

type Event struct{ Type, ID string }

type EventHandler interface{ Handle(Event) }

type NatsHandler struct{ nc *nats.Conn }

func (h *NatsHandler) Handle(e Event) { h.nc.Publish("mdb."+e.Type, []byte(e.ID)) }

type Emitter struct {
	queue    chan Event
	done     chan struct{}
	handlers []EventHandler
}

func NewEmitter(handlers ...EventHandler) *Emitter {
	e := &Emitter{queue: make(chan Event, 100), done: make(chan struct{}), handlers: handlers}
	go e.run()
	return e
}

func (e *Emitter) run() {
	for ev := range e.queue {
		for _, h := range e.handlers {
			h.Handle(ev)
		}
	}
	e.done <- struct{}{}
}

func (e *Emitter) Emit(evs ...Event) {
	for _, ev := range evs {
		e.queue <- ev
	}
}

func (e *Emitter) Shutdown() {
	close(e.queue)
	<-e.done
}

// Audit keeps lines in memory through its own channel: no broker.
type Audit struct{ lines chan string }

func (a *Audit) drain() {
	for l := range a.lines {
		log.Println(l)
	}
}

type Service struct {
	db    *sql.DB
	emit  *Emitter
	audit *Audit
}

// CreateCollection commits the collection, then emits its event.
func (s *Service) CreateCollection(ctx context.Context, name string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO collections (name) VALUES ($1)", name); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.emit.Emit(Event{Type: "collection_create", ID: name})
	return nil
}

// RenameCollection writes and logs through the audit channel: no publish.
func (s *Service) RenameCollection(ctx context.Context, id, name string) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE collections SET name = $1 WHERE id = $2", name, id); err != nil {
		return err
	}
	s.audit.lines <- "renamed " + id
	return nil
}
