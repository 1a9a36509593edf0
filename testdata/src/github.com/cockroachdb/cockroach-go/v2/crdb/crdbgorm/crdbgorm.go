// Package crdbgorm stubs github.com/cockroachdb/cockroach-go/v2/crdb/crdbgorm.
package crdbgorm

import (
	"context"

	"gorm.io/gorm"
)

// ExecuteTxGORM runs fn in a transaction, retrying it, and commits.
func ExecuteTxGORM(ctx context.Context, db *gorm.DB, fn func(tx *gorm.DB) error) error { return nil }
