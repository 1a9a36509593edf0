// Package inbox is a stand-in for the generated inbox package.
package inbox

import (
	"context"
	"database/sql"
)

// Process runs fn and records the message id in one transaction.
func Process(ctx context.Context, db *sql.DB, consumer, messageID string, fn func(*sql.Tx) error) error {
	return nil
}
