// Package sqlcpgx uses sqlc's pgx queries: a :one INSERT ... RETURNING is a write.
package sqlcpgx

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"shapes/sqlcpgx/db"
)

type Service struct {
	pool *pgxpool.Pool
	q    *db.Queries
	js   jetstream.JetStream
}

func (s *Service) Create(ctx context.Context, id string) error {
	if _, err := s.q.CreateOrder(ctx, id, "new"); err != nil {
		return err
	}
	_, err := s.js.Publish(ctx, "orders.created", []byte(id)) // want `OBX001 publish \(jetstream.Publisher\).Publish after the autocommitted DB write \(db.DBTX\).QueryRow \(via \(\*db.Queries\).CreateOrder\)`
	return err
}

func (s *Service) View(ctx context.Context, id string) error {
	st, err := s.q.GetOrder(ctx, id)
	if err != nil {
		return err
	}
	_, err = s.js.Publish(ctx, "orders.viewed", []byte(st))
	return err
}

// The outbox row through sqlc in the same transaction: silent.
func (s *Service) CreateWithOutbox(ctx context.Context, id string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	qtx := s.q.WithTx(tx)
	if _, err := qtx.CreateOrder(ctx, id, "new"); err != nil {
		return err
	}
	if err := qtx.InsertOutbox(ctx, id, "orders", id, "OrderCreated", []byte(`{}`)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}
