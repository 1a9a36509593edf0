// Package crdbpgx stubs github.com/cockroachdb/cockroach-go/v2/crdb/crdbpgxv5.
package crdbpgx

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Conn is what ExecuteTx begins on (a pgx.Conn or a pool).
type Conn interface {
	BeginTx(ctx context.Context, opts pgx.TxOptions) (pgx.Tx, error)
}

// ExecuteTx runs fn in a transaction, retrying it, and commits.
func ExecuteTx(ctx context.Context, conn Conn, txOptions pgx.TxOptions, fn func(pgx.Tx) error) error {
	return nil
}
