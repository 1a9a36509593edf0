package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// statements is the SQL an insert runs, in this order, on the caller's
// transaction, in the placeholder style of the driver that runs it.
// Either lockInsert (one statement) or lock then insert.
type statements struct{ lockInsert, lock, insert, delete string }

// The one-bigint advisory lock form; relay locks use the two-int4 form, a
// separate key space, so they never collide with these. On PostgreSQL the
// lock and the insert are one statement (no extra round trip): the insert
// reads the CTE that takes the lock, so the row (and its seq) comes after it.
var dollarSQL = statements{
	lockInsert: `WITH l AS (SELECT pg_advisory_xact_lock(hashtextextended($1, 0))) ` +
		`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, headers) SELECT $2, $3, $4, $5, $6, $7 FROM l`,
	delete: `DELETE FROM outbox WHERE id = $1`,
}

// gorm binds ? placeholders on every database.
var questionSQL = statements{
	lockInsert: `WITH l AS (SELECT pg_advisory_xact_lock(hashtextextended(?, 0))) ` +
		`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, headers) SELECT ?, ?, ?, ?, ?, ? FROM l`,
	delete: `DELETE FROM outbox WHERE id = ?`,
}

// ErrNotInTransaction is returned for a *gorm.DB that is not inside a
// transaction: the lock and the row would autocommit apart from the
// business write.
var ErrNotInTransaction = errors.New("outbox: the *gorm.DB is not in a transaction (use the one db.Transaction passes, or db.Begin())")

// insert adds m through exec, which runs one statement on the caller's
// transaction. It first takes a per-aggregate lock held until the
// transaction ends, so per aggregate the insert order (seq) is the commit order.
func insert(ctx context.Context, q statements, exec func(query string, args ...interface{}) error, m Message) error {
	r, err := encode(ctx, m)
	if err != nil {
		return err
	}
	if q.lockInsert != "" {
		if err := exec(q.lockInsert, append([]interface{}{r.lockKey()}, r.args()...)...); err != nil {
			return fmt.Errorf("outbox: lock aggregate %s and insert %s %s: %w", r.lockKey(), r.eventType, r.id, err)
		}
	} else {
		if err := exec(q.lock, r.lockKey()); err != nil {
			return fmt.Errorf("outbox: lock aggregate %s: %w", r.lockKey(), err)
		}
		if err := exec(q.insert, r.args()...); err != nil {
			return fmt.Errorf("outbox: insert %s %s: %w", r.eventType, r.id, err)
		}
	}
	return nil
}

// Insert adds m to the outbox on tx, the transaction that makes the
// business change m announces (database/sql).
func Insert(ctx context.Context, tx *sql.Tx, m Message) error {
	return insert(ctx, dollarSQL, func(query string, args ...interface{}) error {
		_, err := tx.ExecContext(ctx, query, args...)
		return err
	}, m)
}

// InsertGorm adds m to the outbox on tx, a *gorm.DB inside the transaction
// (db.Transaction's argument, or db.Begin()) that makes the business change
// m announces.
func InsertGorm(ctx context.Context, tx *gorm.DB, m Message) error {
	if _, ok := tx.Statement.ConnPool.(gorm.TxCommitter); !ok {
		return ErrNotInTransaction
	}
	return insert(ctx, questionSQL, func(query string, args ...interface{}) error {
		return tx.WithContext(ctx).Exec(query, args...).Error
	}, m)
}

// InsertPgx adds m to the outbox on tx, the transaction that makes the
// business change m announces (pgx v5).
func InsertPgx(ctx context.Context, tx pgx.Tx, m Message) error {
	return insert(ctx, dollarSQL, func(query string, args ...interface{}) error {
		_, err := tx.Exec(ctx, query, args...)
		return err
	}, m)
}
