// Package middleware: an event-store middleware that wraps a service
// interface, the service behind it reaching the database through a
// repository interface and a DB wrapper interface: three interface hops.
// The middleware implements the interface it wraps (a cycle for the
// resolver). CLI only: go vet cannot see which implementations main wires.
package middleware

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

type Service interface {
	Register(ctx context.Context, name string) (string, error)
}

type Repository interface {
	Save(ctx context.Context, name string) (string, error)
}

// Database wraps the pool (tracing): the SQL comes from the caller.
type Database interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

type tracingDB struct{ db *sql.DB }

func (d *tracingDB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return d.db.QueryRowContext(ctx, query, args...)
}

type repo struct{ db Database }

func (r *repo) Save(ctx context.Context, name string) (string, error) {
	q := `INSERT INTO users (name) VALUES ($1) RETURNING id`
	var id string
	err := r.db.QueryRowContext(ctx, q, name).Scan(&id)
	return id, err
}

type service struct{ users Repository }

func (s *service) Register(ctx context.Context, name string) (string, error) {
	return s.users.Save(ctx, name)
}

// logging wraps the service too.
type logging struct{ next Service }

func (l *logging) Register(ctx context.Context, name string) (string, error) {
	return l.next.Register(ctx, name)
}

type Publisher interface {
	Publish(ctx context.Context, stream string, v []byte) error
}

type natsPublisher struct{ nc *nats.Conn }

func (p *natsPublisher) Publish(ctx context.Context, stream string, v []byte) error {
	return p.nc.Publish(stream, v)
}

type eventStore struct {
	Publisher
	next Service
}

func (es *eventStore) Register(ctx context.Context, name string) (string, error) {
	id, err := es.next.Register(ctx, name)
	if err != nil {
		return "", err
	}
	if err := es.Publish(ctx, "users", []byte(id)); err != nil {
		return "", err
	}
	return id, nil
}

func New(db *sql.DB, nc *nats.Conn) Service {
	var s Service = &service{users: &repo{db: &tracingDB{db: db}}}
	s = &logging{next: s}
	return &eventStore{Publisher: &natsPublisher{nc: nc}, next: s}
}
