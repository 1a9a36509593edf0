package order

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PgRepository stores orders in PostgreSQL.
type PgRepository struct {
	pool *pgxpool.Pool
}

// NewPgRepository returns a repository on pool.
func NewPgRepository(pool *pgxpool.Pool) *PgRepository { return &PgRepository{pool: pool} }

// Create inserts o; the statement commits on its own.
func (r *PgRepository) Create(ctx context.Context, o Order) error {
	_, err := r.pool.Exec(ctx,
		`INSERT INTO orders (id, customer_id, total_cents, status) VALUES ($1, $2, $3, $4)`,
		o.ID, o.CustomerID, o.TotalCents, o.Status)
	if err != nil {
		return fmt.Errorf("insert order %s: %w", o.ID, err)
	}
	return nil
}

// SetStatus changes the status of order id.
func (r *PgRepository) SetStatus(ctx context.Context, id, status string) error {
	_, err := r.pool.Exec(ctx, `UPDATE orders SET status = $2 WHERE id = $1`, id, status)
	if err != nil {
		return fmt.Errorf("set status of order %s: %w", id, err)
	}
	return nil
}

// Get reads order id.
func (r *PgRepository) Get(ctx context.Context, id string) (Order, error) {
	var o Order
	err := r.pool.QueryRow(ctx,
		`SELECT id, customer_id, total_cents, status, created_at FROM orders WHERE id = $1`, id).
		Scan(&o.ID, &o.CustomerID, &o.TotalCents, &o.Status, &o.CreatedAt)
	if err != nil {
		return Order{}, fmt.Errorf("get order %s: %w", id, err)
	}
	return o, nil
}

// CreateTx inserts o on tx.
func CreateTx(ctx context.Context, tx pgx.Tx, o Order) error {
	_, err := tx.Exec(ctx,
		`INSERT INTO orders (id, customer_id, total_cents, status) VALUES ($1, $2, $3, $4)`,
		o.ID, o.CustomerID, o.TotalCents, o.Status)
	if err != nil {
		return fmt.Errorf("insert order %s: %w", o.ID, err)
	}
	return nil
}
