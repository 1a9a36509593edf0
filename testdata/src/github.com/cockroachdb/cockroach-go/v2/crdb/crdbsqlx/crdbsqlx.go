// Package crdbsqlx stubs github.com/cockroachdb/cockroach-go/v2/crdb/crdbsqlx.
package crdbsqlx

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
)

// ExecuteTx runs fn in a transaction, retrying it, and commits.
func ExecuteTx(ctx context.Context, db *sqlx.DB, opts *sql.TxOptions, fn func(*sqlx.Tx) error) error {
	return nil
}
