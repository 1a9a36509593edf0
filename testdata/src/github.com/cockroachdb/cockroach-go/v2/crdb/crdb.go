// Package crdb stubs the transaction runners of github.com/cockroachdb/cockroach-go/v2/crdb.
package crdb

import (
	"context"
	"database/sql"
)

// ExecuteTx runs fn in a transaction, retrying it, and commits.
func ExecuteTx(ctx context.Context, db *sql.DB, opts *sql.TxOptions, fn func(*sql.Tx) error) error {
	return nil
}
