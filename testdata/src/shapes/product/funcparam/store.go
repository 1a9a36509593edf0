// Package funcparam has the shapes of func-typed parameters (CLI): a
// handler constructor takes the store's methods as function values and
// calls them in the handler it returns, and a store method takes the
// publish as a callback and calls it inside its own transaction. What a
// call of the parameter does is what every value the program passes does.
package funcparam

import (
	"context"
	"database/sql"
	"log"

	"github.com/nats-io/nats.go"
	"github.com/uptrace/bun"
)

type Store struct {
	db  *sql.DB
	bun *bun.DB
	nc  *nats.Conn
}

// CreateEvent records an audit event.
func (s *Store) CreateEvent(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO file_events (path) VALUES ($1)", id)
	return err
}

// Announce publishes that a file is published.
func (s *Store) Announce(ctx context.Context, id string) error {
	return s.nc.Publish("files.published", []byte(id))
}

// PublishInTx locks the row, calls the caller's publish and marks the row
// published, in one transaction: the publish is not undone if the update
// or the commit fails. The dual write meets here (CLI: publishFn is what
// Meter passes).
func (s *Store) PublishInTx(ctx context.Context, id int64, publishFn func(id int64) error) error {
	return s.bun.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := publishFn(id); err != nil {
			return err
		}
		_, err := tx.NewUpdate().Exec(ctx)
		return err
	})
}

// SaveThen inserts, then runs a hook: one caller passes a publish, another
// a logger, so the hook is no publish of SaveThen's own.
func (s *Store) SaveThen(ctx context.Context, id string, after func(ctx context.Context, id string) error) error {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO files (path) VALUES ($1)", id); err != nil {
		return err
	}
	return after(ctx, id)
}

func logOnly(ctx context.Context, id string) error {
	log.Print(id)
	return nil
}
