// Package pgx is a stub of github.com/jackc/pgx/v5 for rewrite tests.
package pgx

import (
	"context"

	"github.com/jackc/pgx/v5/pgconn"
)

type Row interface{ Scan(dest ...any) error }

type Tx interface {
	Begin(ctx context.Context) (Tx, error)
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
	Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row
}

type Conn struct{}

func (c *Conn) Begin(ctx context.Context) (Tx, error) { return nil, nil }
func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, nil
}
