// Package repo is a repository in another package than the consumers.
package repo

import (
	"context"
	"database/sql"
)

type Orders struct{ db *sql.DB }

// SetStatus writes through a helper: found through the facts.
func (o *Orders) SetStatus(ctx context.Context, id, status string) error { // want SetStatus:`consumer\(writes \(\*database/sql.DB\).ExecContext\)`
	return o.exec(ctx, "UPDATE orders SET status = $1 WHERE id = $2", status, id)
}

func (o *Orders) exec(ctx context.Context, q string, args ...any) error {
	_, err := o.db.ExecContext(ctx, q, args...)
	return err
}

// Project upserts: repeatable, no fact.
func (o *Orders) Project(ctx context.Context, id string) error {
	_, err := o.db.ExecContext(ctx, "INSERT INTO order_views (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", id)
	return err
}
