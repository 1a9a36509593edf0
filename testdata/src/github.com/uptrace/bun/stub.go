package bun

import (
	"context"
	"database/sql"
)

type DB struct{}
type Tx struct{}
type IDB interface{}

type InsertQuery struct{}
type UpdateQuery struct{}
type DeleteQuery struct{}
type SelectQuery struct{}

func (db *DB) NewInsert() *InsertQuery                                      { return nil }
func (db *DB) NewUpdate() *UpdateQuery                                      { return nil }
func (db *DB) NewDelete() *DeleteQuery                                      { return nil }
func (db *DB) NewSelect() *SelectQuery                                      { return nil }
func (db *DB) BeginTx(ctx context.Context, opts *sql.TxOptions) (Tx, error) { return Tx{}, nil }
func (db *DB) RunInTx(ctx context.Context, opts *sql.TxOptions, fn func(ctx context.Context, tx Tx) error) error {
	return nil
}
func (tx Tx) NewInsert() *InsertQuery { return nil }
func (tx Tx) NewUpdate() *UpdateQuery { return nil }
func (tx Tx) Commit() error           { return nil }
func (tx Tx) Rollback() error         { return nil }

func (q *InsertQuery) Model(m any) *InsertQuery                                  { return q }
func (q *InsertQuery) Exec(ctx context.Context, dest ...any) (sql.Result, error) { return nil, nil }
func (q *UpdateQuery) Model(m any) *UpdateQuery                                  { return q }
func (q *UpdateQuery) Where(s string, a ...any) *UpdateQuery                     { return q }
func (q *UpdateQuery) Exec(ctx context.Context, dest ...any) (sql.Result, error) { return nil, nil }
func (q *DeleteQuery) Model(m any) *DeleteQuery                                  { return q }
func (q *DeleteQuery) Where(s string, a ...any) *DeleteQuery                     { return q }
func (q *DeleteQuery) Exec(ctx context.Context, dest ...any) (sql.Result, error) { return nil, nil }
func (q *SelectQuery) Model(m any) *SelectQuery                                  { return q }
func (q *SelectQuery) Scan(ctx context.Context, dest ...any) error               { return nil }
func (q *SelectQuery) Exec(ctx context.Context, dest ...any) (sql.Result, error) { return nil, nil }
