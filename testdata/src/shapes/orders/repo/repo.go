// Package repo writes orders to PostgreSQL.
package repo

import (
	"context"
	"database/sql"

	"shapes/orders/domain"
)

type PostgresRepo struct{ db *sql.DB }

func NewPostgresRepo(db *sql.DB) *PostgresRepo { return &PostgresRepo{db: db} }

// Save autocommits.
func (r *PostgresRepo) Save(ctx context.Context, o domain.Order) error {
	return r.exec(ctx, "INSERT INTO orders (id, status) VALUES ($1, $2)", o.ID, o.Status)
}

func (r *PostgresRepo) exec(ctx context.Context, q string, args ...any) error {
	_, err := r.db.ExecContext(ctx, q, args...)
	return err
}

// SaveAll commits its own transaction.
func (r *PostgresRepo) SaveAll(ctx context.Context, orders []domain.Order) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, o := range orders {
		if _, err := tx.ExecContext(ctx, "INSERT INTO orders (id, status) VALUES ($1, $2)", o.ID, o.Status); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Find only reads.
func (r *PostgresRepo) Find(ctx context.Context, id string) (domain.Order, error) {
	var o domain.Order
	err := r.db.QueryRowContext(ctx, "SELECT id, status FROM orders WHERE id = $1", id).Scan(&o.ID, &o.Status)
	return o, err
}
