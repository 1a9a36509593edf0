// Package orders is a service in the dual-write shape fix's unit of work
// rewrites: the service calls a repository that writes through its own
// *sql.DB, then a publisher wrapper around a core NATS connection, with no
// transaction between them. The e2e test copies it into a temporary module
// and runs `outboxify fix` on it; nothing here knows about the outbox.
package orders

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"
)

// Repository stores orders.
type Repository interface {
	Create(ctx context.Context, id string) error
}

// Events announces orders.
type Events interface {
	Placed(ctx context.Context, id string) error
}

// Repo is the database/sql repository.
type Repo struct{ db *sql.DB }

// NewRepo returns a repository writing through db.
func NewRepo(db *sql.DB) *Repo { return &Repo{db: db} }

// Create inserts the order row.
func (r *Repo) Create(ctx context.Context, id string) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO orders (id) VALUES ($1)`, id)
	return err
}

// NATSEvents is the publisher wrapper.
type NATSEvents struct {
	nc      *nats.Conn
	subject string
}

// NewEvents returns a wrapper publishing on subject.
func NewEvents(nc *nats.Conn, subject string) *NATSEvents {
	return &NATSEvents{nc: nc, subject: subject}
}

// Placed publishes the order id.
func (e *NATSEvents) Placed(ctx context.Context, id string) error {
	return e.nc.Publish(e.subject, []byte(id))
}

// Service places orders.
type Service struct {
	repo   Repository
	events Events
}

// NewService wires a service.
func NewService(repo Repository, events Events) *Service {
	return &Service{repo: repo, events: events}
}

// Place writes the order, then announces it.
func (s *Service) Place(ctx context.Context, id string) error {
	if err := s.repo.Create(ctx, id); err != nil {
		return err
	}
	hold(id)
	return s.events.Placed(ctx, id)
}

// hold stops the order whose id UOW_HOLD names between its write and its
// publish, long enough for a test to SIGKILL the process there.
func hold(id string) {
	if os.Getenv("UOW_HOLD") != id {
		return
	}
	fmt.Fprintln(os.Stderr, "uowapp: holding", id)
	time.Sleep(time.Minute)
}
