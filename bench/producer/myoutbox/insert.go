package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"gorm.io/gorm"
)

// statements is the SQL an insert runs, in this order, on the caller's
// transaction, in the placeholder style of the driver that runs it.
// Either lockInsert (one statement) or lock then insert.
type statements struct{ lockInsert, lock, insert, delete string }

// Inserting (or hitting) the aggregate's row holds its exclusive row lock
// until commit: the per-aggregate lock. MySQL has no statement that both
// locks a row and inserts into another table (INSERT ... SELECT with a
// locking read of the lock table would need the lock row to exist first),
// so it takes two round trips.
var questionSQL = statements{
	lock:   `INSERT INTO outbox_aggregate_lock (lock_key) VALUES (?) ON DUPLICATE KEY UPDATE lock_key = lock_key`,
	insert: `INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, headers) VALUES (?, ?, ?, ?, ?, ?)`,
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
	return insert(ctx, questionSQL, func(query string, args ...interface{}) error {
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
