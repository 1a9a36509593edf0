// Package db is sqlc-shaped generated code: a DBTX interface, Queries and WithTx.
package db

import (
	"context"
	"database/sql"
)

type DBTX interface {
	ExecContext(context.Context, string, ...interface{}) (sql.Result, error)
	QueryRowContext(context.Context, string, ...interface{}) *sql.Row
}

func New(db DBTX) *Queries { return &Queries{db: db} }

type Queries struct{ db DBTX }

func (q *Queries) WithTx(tx *sql.Tx) *Queries { return &Queries{db: tx} }

const createOrder = `INSERT INTO orders (id, status) VALUES ($1, $2)`

func (q *Queries) CreateOrder(ctx context.Context, id, status string) error {
	_, err := q.db.ExecContext(ctx, createOrder, id, status)
	return err
}

const getOrder = `SELECT status FROM orders WHERE id = $1`

func (q *Queries) GetOrder(ctx context.Context, id string) (string, error) {
	var s string
	err := q.db.QueryRowContext(ctx, getOrder, id).Scan(&s)
	return s, err
}
