// Package db is sqlc-generated code for pgx: the DBTX interface returns pgx
// types, so only the SQL text tells a write from a read.
package db

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

type DBTX interface {
	Exec(context.Context, string, ...interface{}) (pgconn.CommandTag, error)
	Query(context.Context, string, ...interface{}) (pgx.Rows, error)
	QueryRow(context.Context, string, ...interface{}) pgx.Row
}

func New(db DBTX) *Queries { return &Queries{db: db} }

type Queries struct{ db DBTX }

func (q *Queries) WithTx(tx pgx.Tx) *Queries { return &Queries{db: tx} }

const createOrder = `-- name: CreateOrder :one
INSERT INTO orders (id, status) VALUES ($1, $2) RETURNING id`

func (q *Queries) CreateOrder(ctx context.Context, id, status string) (string, error) {
	row := q.db.QueryRow(ctx, createOrder, id, status)
	var out string
	err := row.Scan(&out)
	return out, err
}

const getOrder = `-- name: GetOrder :one
SELECT status FROM orders WHERE id = $1`

func (q *Queries) GetOrder(ctx context.Context, id string) (string, error) {
	row := q.db.QueryRow(ctx, getOrder, id)
	var s string
	err := row.Scan(&s)
	return s, err
}

const insertOutbox = `-- name: InsertOutbox :exec
INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload) VALUES ($1, $2, $3, $4, $5)`

func (q *Queries) InsertOutbox(ctx context.Context, id, aggType, aggID, eventType string, payload []byte) error {
	_, err := q.db.Exec(ctx, insertOutbox, id, aggType, aggID, eventType, payload)
	return err
}
