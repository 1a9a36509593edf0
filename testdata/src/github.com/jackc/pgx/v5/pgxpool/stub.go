package pgxpool

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

type Pool struct{}

func (p *Pool) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, nil
}
func (p *Pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { return nil, nil }
func (p *Pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row        { return nil }
func (p *Pool) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults         { return nil }
func (p *Pool) CopyFrom(ctx context.Context, t pgx.Identifier, c []string, r pgx.CopyFromSource) (int64, error) {
	return 0, nil
}
func (p *Pool) Begin(ctx context.Context) (pgx.Tx, error)                    { return nil, nil }
func (p *Pool) BeginTx(ctx context.Context, o pgx.TxOptions) (pgx.Tx, error) { return nil, nil }
func (p *Pool) Acquire(ctx context.Context) (*Conn, error)                   { return nil, nil }

type Conn struct{}

func (c *Conn) Release() {}

func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, nil
}
func (c *Conn) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { return nil, nil }
func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row        { return nil }
func (c *Conn) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults         { return nil }
func (c *Conn) CopyFrom(ctx context.Context, t pgx.Identifier, cs []string, r pgx.CopyFromSource) (int64, error) {
	return 0, nil
}
func (c *Conn) Begin(ctx context.Context) (pgx.Tx, error)                    { return nil, nil }
func (c *Conn) BeginTx(ctx context.Context, o pgx.TxOptions) (pgx.Tx, error) { return nil, nil }

type Tx struct{}

func (t *Tx) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	return pgconn.CommandTag{}, nil
}
func (t *Tx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { return nil, nil }
func (t *Tx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row        { return nil }
func (t *Tx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults         { return nil }
func (t *Tx) CopyFrom(ctx context.Context, n pgx.Identifier, cs []string, r pgx.CopyFromSource) (int64, error) {
	return 0, nil
}
func (t *Tx) Commit(ctx context.Context) error   { return nil }
func (t *Tx) Rollback(ctx context.Context) error { return nil }
