// Package models has the shape of sqlboiler's generated models: Upsert
// builds INSERT ... ON CONFLICT at run time.
package models

import (
	"context"
	"database/sql"

	"github.com/volatiletech/sqlboiler/v4/queries"
)

type Request struct{ ID string }

func (o *Request) Upsert(ctx context.Context, exec *sql.DB, updateOnConflict bool, conflictColumns []string) error {
	q := queries.BuildUpsertQueryPostgres("requests", updateOnConflict, conflictColumns)
	_, err := exec.ExecContext(ctx, q, o.ID)
	return err
}

func (o *Request) Insert(ctx context.Context, exec *sql.DB) error {
	_, err := exec.ExecContext(ctx, "INSERT INTO requests (id) VALUES ($1)", o.ID)
	return err
}
