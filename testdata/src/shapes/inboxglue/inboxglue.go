// Package inboxglue has the shape of the inbox consumer glue outboxify
// generates: Handle records the message id in the inbox table (INSERT INTO
// inbox ... ON CONFLICT DO NOTHING) in the transaction that runs the
// handler and commits; the Kafka glue fetches, processes with retries,
// dead-letters what cannot be applied and commits the offset. The inbox row
// is the consumer's bookkeeping, not data an event announces: silent.
package inboxglue

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/segmentio/kafka-go"
)

// DB is the handle Handle opens transactions on.
type DB interface {
	Begin(ctx context.Context) (pgx.Tx, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

type Tx = pgx.Tx

type Delivery struct {
	MessageID string
	Payload   []byte
	Attempt   int
}

type Outcome int

const (
	Applied Outcome = iota
	Duplicate
	Retry
	DeadLetter
)

const recordSQL = `INSERT INTO inbox (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`

// Handle runs fn in a transaction that also records the message in the inbox.
func Handle(ctx context.Context, db DB, consumer, messageID string, fn func(tx Tx) error) (bool, error) {
	tx, err := db.Begin(ctx)
	if err != nil {
		return false, fmt.Errorf("inbox: begin: %w", err)
	}
	defer tx.Rollback(ctx)
	fresh, err := record(ctx, tx, consumer, messageID)
	if err != nil {
		return false, err
	}
	if !fresh {
		return false, nil
	}
	if err := fn(tx); err != nil {
		return false, err
	}
	if err := tx.Commit(ctx); err != nil {
		return false, err
	}
	return true, nil
}

func record(ctx context.Context, tx pgx.Tx, consumer, id string) (bool, error) {
	_, err := tx.Exec(ctx, recordSQL, consumer, id)
	return err == nil, err
}

// Prune deletes old inbox rows.
func Prune(ctx context.Context, db DB) error {
	_, err := db.Exec(ctx, `DELETE FROM inbox WHERE received_at < now() - interval '7 days'`)
	return err
}

type Consumer struct {
	Name    string
	DB      DB
	Handler func(tx Tx, d Delivery) error
}

func (c *Consumer) Process(ctx context.Context, d Delivery) (Outcome, error) {
	applied, err := Handle(ctx, c.DB, c.Name, d.MessageID, func(tx Tx) error { return c.Handler(tx, d) })
	switch {
	case err == nil && !applied:
		return Duplicate, nil
	case err != nil && d.Attempt >= 5:
		return DeadLetter, err
	case err != nil:
		return Retry, err
	}
	return Applied, nil
}

func (c *Consumer) processWithRetry(ctx context.Context, d Delivery) (Outcome, error) {
	for attempt := 1; ; attempt++ {
		d.Attempt = attempt
		out, err := c.Process(ctx, d)
		if out != Retry {
			return out, err
		}
		select {
		case <-ctx.Done():
			return Retry, errors.Join(err, ctx.Err())
		case <-time.After(time.Duration(attempt) * time.Second):
		}
	}
}

// KafkaGo consumes r: process, dead-letter, commit the offset.
func (c *Consumer) KafkaGo(ctx context.Context, r *kafka.Reader, dlq *kafka.Writer) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		d := Delivery{MessageID: string(m.Key), Payload: m.Value}
		out, perr := c.processWithRetry(ctx, d)
		switch out {
		case Retry:
			return perr
		case DeadLetter:
			dm := kafka.Message{Topic: m.Topic + ".dlq", Key: m.Key, Value: m.Value}
			if err := dlq.WriteMessages(ctx, dm); err != nil {
				return err
			}
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// recordThenAnnounce writes business data in the inbox transaction and
// then announces it: the inbox does not make that publish safe.
func recordThenAnnounce(ctx context.Context, db DB, w *kafka.Writer, id string) error {
	tx, err := db.Begin(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, recordSQL, "shipping", id); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE shipments SET state = 'sent' WHERE id = $1`, id); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	return w.WriteMessages(ctx, kafka.Message{Topic: "shipments"}) // want `OBX002`
}
