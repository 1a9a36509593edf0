package outbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"

	"gorm.io/gorm"
)

// A unit of work carried in a context.Context: Run opens it, the handles a
// repository writes through join it (SQL, Pgx, Gorm), and Enqueue buffers
// the messages a publisher would have sent. The transaction begins lazily,
// on the first writing call made through the unit, on that handle's pool;
// at the end Run inserts the buffered messages as outbox rows on the same
// transaction and commits. A unit in which nothing was written publishes
// its messages directly, after the function succeeds: with no write there
// is no dual write.

// ErrOtherDB is returned by Run when one unit writes through two different
// connection pools: one transaction cannot span them.
var ErrOtherDB = errors.New("outbox: a unit of work wrote to a second database; one transaction cannot span two pools")

// DirectEnv, set to 1 in the environment, makes Enqueue publish directly
// again (the behaviour before the outbox), for rolling a deployment back.
const DirectEnv = "OUTBOX_DIRECT"

type unitKey struct{}

type queued struct {
	msg    Message
	direct func(context.Context) error
}

type unit struct {
	mu       sync.Mutex
	pool     interface{} // the pool the transaction was begun on (*sql.DB, *pgxpool.Pool)
	commit   func(context.Context) error
	rollback func(context.Context) error
	exec     func(ctx context.Context, query string, args ...interface{}) error
	sqlTx    *sql.Tx
	queue    []queued
	failed   error // an error inside the unit that must roll it back, even if swallowed
	// saves are the transactions the code began itself (BeginSQL) and has
	// not ended yet: savepoints on the unit's transaction, innermost last.
	saves []savepoint
	nsave int
}

// savepoint is one transaction the code began inside a unit of work.
type savepoint struct {
	name  string
	queue int // len(queue) when it began: its rollback drops the messages enqueued after
}

func unitOf(ctx context.Context) *unit {
	u, _ := ctx.Value(unitKey{}).(*unit)
	return u
}

// InUnit reports whether ctx carries a unit of work.
func InUnit(ctx context.Context) bool { return unitOf(ctx) != nil }

// Run runs fn in a unit of work: it commits when fn returns nil, and rolls
// back when fn returns an error or panics. A Run inside a unit joins it: an
// inner error rolls the whole unit back, even if the outer code swallows it.
func Run(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	if u := unitOf(ctx); u != nil {
		if err := fn(ctx); err != nil {
			u.fail(err)
			return err
		}
		return nil
	}
	u := &unit{}
	ctx = context.WithValue(ctx, unitKey{}, u)
	defer func() {
		if p := recover(); p != nil {
			u.abort(ctx)
			panic(p)
		}
	}()
	if err := fn(ctx); err != nil {
		u.abort(ctx)
		return err
	}
	return u.finish(ctx)
}

func (u *unit) fail(err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.failed == nil {
		u.failed = err
	}
}

func (u *unit) abort(ctx context.Context) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.rollback != nil {
		_ = u.rollback(context.Background())
	}
	u.queue = nil
}

func (u *unit) finish(ctx context.Context) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.failed != nil {
		if u.rollback != nil {
			_ = u.rollback(context.Background())
		}
		return u.failed
	}
	if len(u.saves) > 0 && u.exec != nil {
		// A transaction the code began and neither committed nor rolled
		// back: on its own it would never have committed.
		if err := u.exec(ctx, "ROLLBACK TO SAVEPOINT "+u.saves[0].name); err != nil {
			_ = u.rollback(context.Background())
			return fmt.Errorf("outbox: roll back a transaction left open in the unit of work: %w", err)
		}
		u.queue = u.queue[:u.saves[0].queue]
		u.saves = nil
	}
	if u.commit == nil {
		// Nothing was written: the messages are no dual write, publish them.
		for _, q := range u.queue {
			if err := q.direct(ctx); err != nil {
				return err
			}
		}
		return nil
	}
	for _, q := range u.queue {
		// The aggregate lock is taken here, last, so it cannot deadlock
		// against writers that lock business rows first.
		if err := insert(ctx, dollarSQL, func(query string, args ...interface{}) error { return u.exec(ctx, query, args...) }, q.msg); err != nil {
			_ = u.rollback(context.Background())
			return err
		}
	}
	if err := u.commit(ctx); err != nil {
		return fmt.Errorf("outbox: commit unit of work: %w", err)
	}
	return nil
}

// Enqueue adds m to the unit of work in ctx: its outbox row is inserted on
// the unit's transaction when Run commits. Outside a unit (or with
// OUTBOX_DIRECT=1) it calls direct, the publish it replaces, at once.
func Enqueue(ctx context.Context, m Message, direct func(context.Context) error) error {
	u := unitOf(ctx)
	if u == nil || os.Getenv(DirectEnv) == "1" {
		return direct(ctx)
	}
	if _, err := encode(ctx, m); err != nil {
		return err // checked now, not at commit
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.queue = append(u.queue, queued{msg: m, direct: direct})
	return nil
}

// join begins the unit's transaction on pool with begin, unless it has
// one: on the same pool the existing one serves; on another, ErrOtherDB.
func (u *unit) join(pool interface{}, begin func() error) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.failed != nil {
		return u.failed
	}
	if u.pool != nil {
		if u.pool != pool {
			u.failed = ErrOtherDB
			return ErrOtherDB
		}
		return nil
	}
	if err := begin(); err != nil {
		u.failed = fmt.Errorf("outbox: begin unit of work: %w", err)
		return u.failed
	}
	u.pool = pool
	return nil
}

// SQLConn is what *sql.DB and *sql.Tx share: a repository written against
// it runs on the unit's transaction inside a unit, on the pool outside.
type SQLConn interface {
	ExecContext(ctx context.Context, query string, args ...interface{}) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...interface{}) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...interface{}) *sql.Row
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// SQL returns the unit's transaction on db inside a unit of work (beginning
// it on the first call), and db itself outside one. When the unit cannot
// use db (a second pool, or begin failed) the returned transaction is
// already rolled back, so every call on it fails, and Run returns the cause.
func SQL(ctx context.Context, db *sql.DB) SQLConn {
	tx, err := sqlTxOf(ctx, db)
	if err != nil {
		return doneTx(db)
	}
	if tx == nil {
		return db
	}
	return tx
}

// sqlTxOf is the unit's *sql.Tx on db; nil outside a unit.
func sqlTxOf(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
	return sqlTxBegin(ctx, db, nil)
}

// sqlTxBegin is sqlTxOf beginning the unit's transaction with opts.
func sqlTxBegin(ctx context.Context, db *sql.DB, opts *sql.TxOptions) (*sql.Tx, error) {
	u := unitOf(ctx)
	if u == nil {
		return nil, nil
	}
	err := u.join(db, func() error {
		tx, err := db.BeginTx(context.WithoutCancel(ctx), opts)
		if err != nil {
			return err
		}
		u.sqlTx = tx
		u.exec = func(ctx context.Context, query string, args ...interface{}) error {
			_, err := tx.ExecContext(ctx, query, args...)
			return err
		}
		u.commit = func(context.Context) error { return tx.Commit() }
		u.rollback = func(context.Context) error { return tx.Rollback() }
		return nil
	})
	if err != nil {
		return nil, err
	}
	return u.sqlTx, nil
}

// BeginSQL begins a transaction on db as db.BeginTx(ctx, opts) does,
// outside a unit of work. Inside one, the code's own transaction joins the
// unit: it is the unit's transaction (begun with opts if this is the unit's
// first write), and a savepoint marks where the code's transaction starts,
// so that CommitSQL and RollbackSQL end that part only. The unit commits at
// the end of Run, with the messages enqueued before and after CommitSQL.
func BeginSQL(ctx context.Context, db *sql.DB, opts *sql.TxOptions) (*sql.Tx, error) {
	if unitOf(ctx) == nil {
		return db.BeginTx(ctx, opts)
	}
	return beginSaved(ctx, db, opts)
}

// BeginSQLDetached is BeginSQL for db.Begin(): outside a unit of work the
// transaction is begun as db.Begin does, not bound to ctx.
func BeginSQLDetached(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
	if unitOf(ctx) == nil {
		return db.Begin()
	}
	return beginSaved(ctx, db, nil)
}

func beginSaved(ctx context.Context, db *sql.DB, opts *sql.TxOptions) (*sql.Tx, error) {
	tx, err := sqlTxBegin(ctx, db, opts)
	if err != nil {
		return nil, err
	}
	u := unitOf(ctx)
	u.mu.Lock()
	u.nsave++
	sp := savepoint{name: fmt.Sprintf("outbox_unit_%d", u.nsave), queue: len(u.queue)}
	u.mu.Unlock()
	if _, err := tx.ExecContext(ctx, "SAVEPOINT "+sp.name); err != nil {
		err = fmt.Errorf("outbox: savepoint for a transaction begun in a unit of work: %w", err)
		u.fail(err)
		return nil, err
	}
	u.mu.Lock()
	u.saves = append(u.saves, sp)
	u.mu.Unlock()
	return tx, nil
}

// CommitSQL commits tx as tx.Commit does, unless tx is the unit of work's
// transaction: then it releases the savepoint BeginSQL set, and the unit
// commits at the end of Run. Like Commit after Commit, a second one
// returns sql.ErrTxDone.
func CommitSQL(ctx context.Context, tx *sql.Tx) error {
	return endSaved(ctx, tx, false)
}

// RollbackSQL rolls tx back as tx.Rollback does, unless tx is the unit of
// work's transaction: then it rolls back to the savepoint BeginSQL set
// (the code's writes since, and the messages enqueued since, are dropped)
// and the unit goes on. After CommitSQL it returns sql.ErrTxDone and
// changes nothing, like Rollback after Commit (a deferred Rollback).
func RollbackSQL(ctx context.Context, tx *sql.Tx) error {
	return endSaved(ctx, tx, true)
}

func endSaved(ctx context.Context, tx *sql.Tx, rollback bool) error {
	u := unitOf(ctx)
	if u != nil {
		u.mu.Lock()
		mine := tx != nil && tx == u.sqlTx
		u.mu.Unlock()
		if !mine {
			u = nil
		}
	}
	if u == nil {
		if rollback {
			return tx.Rollback()
		}
		return tx.Commit()
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.saves) == 0 {
		return sql.ErrTxDone
	}
	sp := u.saves[len(u.saves)-1]
	u.saves = u.saves[:len(u.saves)-1]
	query := "RELEASE SAVEPOINT " + sp.name
	if rollback {
		query = "ROLLBACK TO SAVEPOINT " + sp.name
		u.queue = u.queue[:sp.queue]
	}
	if _, err := tx.ExecContext(ctx, query); err != nil {
		err = fmt.Errorf("outbox: end a transaction begun in a unit of work: %w", err)
		if u.failed == nil {
			u.failed = err
		}
		return err
	}
	return nil
}

// doneTx is a transaction that is over, so every call on it fails with
// sql.ErrTxDone (or db's error when none can be begun).
func doneTx(db *sql.DB) SQLConn {
	tx, err := db.Begin()
	if err != nil {
		return db // unreachable: its calls fail too, and Run returns the begin error
	}
	_ = tx.Rollback()
	return tx
}

// Gorm returns db bound to the unit's transaction inside a unit of work (on
// db's *sql.DB, shared with SQL), and db with ctx outside one.
func Gorm(ctx context.Context, db *gorm.DB) *gorm.DB {
	if unitOf(ctx) == nil {
		return db.WithContext(ctx)
	}
	pool, err := db.DB()
	if err != nil {
		_ = db.AddError(err)
		return db
	}
	tx, err := sqlTxOf(ctx, pool)
	if err != nil {
		s := db.Session(&gorm.Session{Context: ctx})
		_ = s.AddError(err)
		return s
	}
	s := db.Session(&gorm.Session{Context: ctx})
	s.Statement.ConnPool = tx
	return s
}
