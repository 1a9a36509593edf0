// Package crdbrows covers cockroach-go's transaction runners: the callback
// runs in a transaction committed before the runner returns, so a publish
// after the call is after Commit (OBX002), as behind a team's own helper
// whose CockroachDB branch calls the runner.
package crdbrows

import (
	"context"
	"database/sql"

	"github.com/cockroachdb/cockroach-go/v2/crdb"
	"github.com/cockroachdb/cockroach-go/v2/crdb/crdbgorm"
	crdbpgx "github.com/cockroachdb/cockroach-go/v2/crdb/crdbpgxv5"
	"github.com/cockroachdb/cockroach-go/v2/crdb/crdbsqlx"
	"github.com/jackc/pgx/v5"
	"github.com/jmoiron/sqlx"
	"github.com/nats-io/nats.go"
	"gorm.io/gorm"
)

var (
	ctx = context.Background()
	nc  *nats.Conn
)

type Pool struct{ Name string }

func pub() { nc.Publish("pools.changed", nil) }

func posExecuteTx(db *sql.DB) {
	crdb.ExecuteTx(ctx, db, nil, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO pool (name) VALUES ($1)", "p")
		return err
	})
	pub() // want "OBX002"
}

func negExecuteTx(db *sql.DB) {
	crdb.ExecuteTx(ctx, db, nil, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO pool (name) VALUES ($1)", "p")
		return err
	})
}

func posExecuteTxSqlx(db *sqlx.DB) {
	crdbsqlx.ExecuteTx(ctx, db, nil, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO pool (name) VALUES ($1)", "p")
		return err
	})
	pub() // want "OBX002"
}

func negExecuteTxSqlx(db *sqlx.DB) {
	crdbsqlx.ExecuteTx(ctx, db, nil, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO pool (name) VALUES ($1)", "p")
		return err
	})
}

// txExecute is the team's helper: CockroachDB through the runner,
// elsewhere its own Begin and Commit.
func txExecute(db *sqlx.DB, fn func(*sqlx.Tx) error) error {
	if db.DriverName() == "cockroachdb" {
		return crdbsqlx.ExecuteTx(ctx, db, nil, fn)
	}
	tx, err := db.Beginx()
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func posHelper(db *sqlx.DB) error {
	if err := txExecute(db, func(tx *sqlx.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE pool SET status = 'PENDING_UPDATE' WHERE id = $1", 1)
		return err
	}); err != nil {
		return err
	}
	pub() // want "OBX002"
	return nil
}

func posExecuteTxPgx(conn *pgx.Conn) {
	crdbpgx.ExecuteTx(ctx, conn, pgx.TxOptions{}, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO pool (name) VALUES ($1)", "p")
		return err
	})
	pub() // want "OBX002"
}

func negExecuteTxPgx(conn *pgx.Conn) {
	crdbpgx.ExecuteTx(ctx, conn, pgx.TxOptions{}, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "INSERT INTO pool (name) VALUES ($1)", "p")
		return err
	})
}

func posExecuteTxGorm(db *gorm.DB) {
	crdbgorm.ExecuteTx(ctx, db, nil, func(tx *gorm.DB) error {
		return tx.Create(&Pool{Name: "p"}).Error
	})
	pub() // want "OBX002"
}

func negExecuteTxGorm(db *gorm.DB) {
	crdbgorm.ExecuteTx(ctx, db, nil, func(tx *gorm.DB) error {
		return tx.Create(&Pool{Name: "p"}).Error
	})
}
