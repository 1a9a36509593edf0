// Package relay publishes the rows of the outbox table to Kafka and marks
// them published: it is the other half of the outbox pattern, not a dual write.
package relay

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/segmentio/kafka-go"
)

// Relay moves outbox rows to Kafka.
type Relay struct {
	pool *pgxpool.Pool
	w    *kafka.Writer
}

// New returns a relay.
func New(pool *pgxpool.Pool, w *kafka.Writer) *Relay { return &Relay{pool: pool, w: w} }

// Once publishes up to limit pending rows.
func (r *Relay) Once(ctx context.Context, limit int) (int, error) {
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(ctx)
	rows, err := tx.Query(ctx,
		`SELECT id, aggregate_type, aggregate_id, event_type, payload FROM outbox
		 WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`, limit)
	if err != nil {
		return 0, fmt.Errorf("claim: %w", err)
	}
	var msgs []kafka.Message
	var ids []string
	for rows.Next() {
		var id, aggType, aggID, eventType string
		var payload []byte
		if err := rows.Scan(&id, &aggType, &aggID, &eventType, &payload); err != nil {
			return 0, fmt.Errorf("scan: %w", err)
		}
		ids = append(ids, id)
		msgs = append(msgs, kafka.Message{
			Topic: aggType, Key: []byte(aggID), Value: payload,
			Headers: []kafka.Header{{Key: "outbox-id", Value: []byte(id)}, {Key: "event-type", Value: []byte(eventType)}},
		})
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("claim: %w", err)
	}
	if len(msgs) == 0 {
		return 0, nil
	}
	if err := r.w.WriteMessages(ctx, msgs...); err != nil {
		return 0, fmt.Errorf("publish: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE outbox SET published_at = now() WHERE id = ANY($1)`, ids); err != nil {
		return 0, fmt.Errorf("mark published: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	return len(msgs), nil
}
