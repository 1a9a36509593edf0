package kafkago

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"
)

func consumeBad(ctx context.Context, r *kafka.Reader, db *sql.DB) error {
	for {
		m, err := r.FetchMessage(ctx) // want `consumer handler \(code after the call\) writes to the database without the inbox`
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO shipments (order_id) VALUES ($1)", string(m.Key)); err != nil {
			return err
		}
		_ = r.CommitMessages(ctx, m)
	}
}

func consumeInbox(ctx context.Context, r *kafka.Reader, db *sql.DB) error {
	for {
		m, err := r.ReadMessage(ctx)
		if err != nil {
			return err
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, "INSERT INTO inbox (consumer, message_id) VALUES ('shipping', $1) ON CONFLICT DO NOTHING", header(m, "outbox-id"))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			if _, err := tx.ExecContext(ctx, "INSERT INTO shipments (order_id) VALUES ($1)", string(m.Key)); err != nil {
				return err
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
}

func consumeUpsert(ctx context.Context, r *kafka.Reader, db *sql.DB) error {
	m, err := r.FetchMessage(ctx)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO order_views (id, status) VALUES ($1, $2)
		ON CONFLICT (id) DO UPDATE SET status = excluded.status`, string(m.Key), string(m.Value))
	return err
}

// onlyCommits reads and commits offsets: nothing to guard.
func onlyCommits(ctx context.Context, r *kafka.Reader) error {
	m, err := r.FetchMessage(ctx)
	if err != nil {
		return err
	}
	return r.CommitMessages(ctx, m)
}

func header(m kafka.Message, key string) string {
	for _, h := range m.Headers {
		if h.Key == key {
			return string(h.Value)
		}
	}
	return ""
}
