// Package chain checks the facts exported on functions and methods. // want package:"relevant"
package chain

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"

	"outbox"
)

type Repo struct{ db *sql.DB }

func (r *Repo) Save(ctx context.Context) error { // want Save:"effects write:\\(\\*database/sql.DB\\).ExecContext"
	return r.exec(ctx)
}

func (r *Repo) exec(ctx context.Context) error { // want exec:"effects write:\\(\\*database/sql.DB\\).ExecContext"
	_, err := r.db.ExecContext(ctx, "UPDATE orders SET status = 'paid'")
	return err
}

func (r *Repo) Find(ctx context.Context) error { // read-only: no fact
	return r.db.QueryRowContext(ctx, "SELECT 1").Err()
}

type Producer struct{ w *kafka.Writer }

func (p *Producer) Emit(ctx context.Context) error { // want Emit:"effects publish:\\(\\*github.com/segmentio/kafka-go.Writer\\).WriteMessages"
	return p.w.WriteMessages(ctx, kafka.Message{})
}

func SaveTx(ctx context.Context, tx *sql.Tx) error { // want SaveTx:"effects write:\\(\\*database/sql.Tx\\).ExecContext outbox:outbox.Insert"
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders (id) VALUES (1)"); err != nil {
		return err
	}
	return outbox.Insert(ctx, tx, outbox.Message{})
}

// Relay reads the outbox and publishes: its publish is not an effect callers
// see; they see relay work.
func Relay(ctx context.Context, db *sql.DB, w *kafka.Writer) error { // want Relay:"effects relay"
	rows, err := db.QueryContext(ctx, "SELECT id FROM outbox WHERE published_at IS NULL")
	if err != nil {
		return err
	}
	defer rows.Close()
	return w.WriteMessages(ctx, kafka.Message{})
}

// RunRelay calls the relay and writes a heartbeat: a relay too.
func RunRelay(ctx context.Context, db *sql.DB, w *kafka.Writer) error { // want RunRelay:"effects write:\\(\\*database/sql.DB\\).ExecContext relay"
	if _, err := db.ExecContext(ctx, "UPDATE relay_heartbeat SET at = now()"); err != nil {
		return err
	}
	return Relay(ctx, db, w)
}
