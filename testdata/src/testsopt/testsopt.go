// Package testsopt has a dual write only in its tests.
package testsopt

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"
)

func Save(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES (1)")
	return err
}

func Announce(ctx context.Context, w *kafka.Writer) error {
	return w.WriteMessages(ctx, kafka.Message{Topic: "orders"})
}
