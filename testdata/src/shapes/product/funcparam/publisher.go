package funcparam

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

// withPublisher opens a publisher, runs the callback with it and closes
// it: every caller passes a closure that publishes. The callback runs
// before withPublisher returns, so each caller's closure is walked where
// it is written (the parameter's values are not summarised into the
// callee for the callers' sake).
func withPublisher(nc *nats.Conn, fn func(p *nats.Conn) error) error {
	return fn(nc)
}

type Withdrawals struct {
	db *sql.DB
	nc *nats.Conn
}

// Succeed updates the withdrawal, then announces it through the helper.
func (w *Withdrawals) Succeed(ctx context.Context, id string) error {
	if _, err := w.db.ExecContext(ctx, "UPDATE withdrawals SET state = 'done' WHERE id = $1", id); err != nil {
		return err
	}
	return withPublisher(w.nc, func(p *nats.Conn) error {
		return p.Publish("withdrawals.done", []byte(id)) // want "OBX001"
	})
}

// Fail announces the failure only.
func (w *Withdrawals) Fail(ctx context.Context, id string) error {
	return withPublisher(w.nc, func(p *nats.Conn) error {
		return p.Publish("withdrawals.failed", []byte(id))
	})
}
