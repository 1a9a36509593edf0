// Package sqlx is a stub of github.com/jmoiron/sqlx for rewrite tests.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ *sql.DB }

func (db *DB) Beginx() (*Tx, error)                                           { return nil, nil }
func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) { return nil, nil }
func (db *DB) NamedExecContext(ctx context.Context, query string, arg interface{}) (sql.Result, error) {
	return nil, nil
}

func (db *DB) NamedQueryContext(ctx context.Context, query string, arg interface{}) (*Rows, error) {
	return nil, nil
}

type Rows struct{ *sql.Rows }

type Tx struct{ *sql.Tx }

func (tx *Tx) NamedQuery(query string, arg interface{}) (*Rows, error) { return nil, nil }

func (tx *Tx) NamedExecContext(ctx context.Context, query string, arg interface{}) (sql.Result, error) {
	return nil, nil
}
