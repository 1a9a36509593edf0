// Package tenanttx has a multi-tenant service's shape: every repository
// call runs in a transaction that first sets the tenant's search_path (a
// session setting, no write), so a poller that reads due schedules and
// publishes one event per schedule writes nothing.
package tenanttx

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

func quote(s string) string { return `"` + s + `"` }

func withTenantTx(ctx context.Context, db *sql.DB, tenant string, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "SET LOCAL search_path TO "+quote(tenant)+", public"); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

type Poller struct {
	db *sql.DB
	nc *nats.Conn
}

// Poll reads, then announces: no finding.
func (p *Poller) Poll(ctx context.Context, tenant string) error {
	var n int
	err := withTenantTx(ctx, p.db, tenant, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, "SELECT count(*) FROM schedules WHERE due").Scan(&n)
	})
	if err != nil {
		return err
	}
	return p.nc.Publish("schedules.due", nil)
}

// Close writes in the tenant's transaction, then announces.
func (p *Poller) Close(ctx context.Context, tenant, id string) error {
	err := withTenantTx(ctx, p.db, tenant, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE schedules SET closed = true WHERE id = $1", id)
		return err
	})
	if err != nil {
		return err
	}
	return p.nc.Publish("schedules.closed", []byte(id)) // want "OBX002"
}
