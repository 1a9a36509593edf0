// Package sqlexecuter is a team's own SQL interface with sqlx's scanning
// helpers (stellar's SQLExecuter): GetContext runs an UPDATE ... RETURNING
// whose text is built from a constant and a column list, so the call
// writes; a SELECT through the same method reads.
package sqlexecuter

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
	"github.com/segmentio/kafka-go"
)

type SQLExecuter interface {
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
}

type TransactionModel struct {
	DB SQLExecuter
	W  *kafka.Writer
}

func columns() string { return "id, status" }

type Transaction struct{ ID, Status string }

func (t *TransactionModel) UpdateStatusToError(ctx context.Context, id string) (*Transaction, error) {
	query := `UPDATE submitter_transactions SET status = 'ERROR' WHERE id = $1 RETURNING ` + columns()
	var tx Transaction
	if err := t.DB.GetContext(ctx, &tx, query, id); err != nil {
		return nil, err
	}
	return &tx, nil
}

func (t *TransactionModel) handleFailed(ctx context.Context, id string) error {
	if _, err := t.UpdateStatusToError(ctx, id); err != nil {
		return err
	}
	return t.W.WriteMessages(ctx, kafka.Message{Topic: "payment-completed"}) // want "OBX001"
}

func (t *TransactionModel) report(ctx context.Context, id string) error {
	var txs []Transaction
	if err := t.DB.SelectContext(ctx, &txs, "SELECT id, status FROM submitter_transactions WHERE id = $1", id); err != nil {
		return err
	}
	return t.W.WriteMessages(ctx, kafka.Message{Topic: "report"})
}

// DBTransaction is the team's transaction interface; *sqlx.Tx implements it.
type DBTransaction interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	Commit() error
	Rollback() error
}

var _ DBTransaction = (*sqlx.Tx)(nil)

// runInTransaction begins, runs the callback, and commits on the team's
// interface: the callback's writes are committed when it returns.
func runInTransaction(ctx context.Context, db *sqlx.DB, fn func(tx DBTransaction) error) error {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	var dbTx DBTransaction = tx
	if err := fn(dbTx); err != nil {
		_ = dbTx.Rollback()
		return err
	}
	return dbTx.Commit()
}

// RetryInvitation commits through the helper, then publishes: OBX002.
func (t *TransactionModel) RetryInvitation(ctx context.Context, db *sqlx.DB, id string) error {
	if err := runInTransaction(ctx, db, func(tx DBTransaction) error {
		_, err := tx.ExecContext(ctx, "UPDATE receiver_wallets SET invitation_sent_at = NULL WHERE id = $1", id)
		return err
	}); err != nil {
		return err
	}
	return t.W.WriteMessages(ctx, kafka.Message{Topic: "receiver-wallet-new-invitation"}) // want "OBX002"
}

// PostCommitFunction runs after the transaction committed.
type PostCommitFunction func() error

// TransactionOptions carries the callback in a field (stellar's
// RunInTransactionWithPostCommit).
type TransactionOptions struct {
	DB                           *sqlx.DB
	AtomicFunctionWithPostCommit func(dbTx DBTransaction) (PostCommitFunction, error)
}

// runWithPostCommit runs the callback in a transaction, commits, then runs
// the function the callback returned.
func runWithPostCommit(ctx context.Context, opts *TransactionOptions) error {
	atomic := opts.AtomicFunctionWithPostCommit
	tx, err := opts.DB.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	var dbTx DBTransaction = tx
	postCommit, err := atomic(dbTx)
	if err != nil {
		_ = dbTx.Rollback()
		return err
	}
	if err := dbTx.Commit(); err != nil {
		return err
	}
	if postCommit != nil {
		return postCommit()
	}
	return nil
}

// StartDisbursement writes in the callback and publishes from the
// post-commit function it returns: after Commit, OBX002.
func (t *TransactionModel) StartDisbursement(ctx context.Context, db *sqlx.DB, id string) error {
	return runWithPostCommit(ctx, &TransactionOptions{ // want "OBX002"
		DB: db,
		AtomicFunctionWithPostCommit: func(dbTx DBTransaction) (PostCommitFunction, error) {
			if _, err := dbTx.ExecContext(ctx, "UPDATE disbursements SET status = 'STARTED' WHERE id = $1", id); err != nil {
				return nil, err
			}
			var post PostCommitFunction
			post = func() error {
				return t.W.WriteMessages(ctx, kafka.Message{Topic: "payment-ready-to-pay"})
			}
			return post, nil
		},
	})
}

// RetryPayments builds the options in a local first, as stellar's
// handlers do.
func (t *TransactionModel) RetryPayments(ctx context.Context, db *sqlx.DB) error {
	opts := TransactionOptions{
		DB: db,
		AtomicFunctionWithPostCommit: func(dbTx DBTransaction) (post PostCommitFunction, err error) {
			if _, err = dbTx.ExecContext(ctx, "UPDATE payments SET status = 'READY' WHERE status = 'FAILED'"); err != nil {
				return nil, err
			}
			post = func() error {
				return t.W.WriteMessages(ctx, kafka.Message{Topic: "payment-ready-to-pay"})
			}
			return post, nil
		},
	}
	return runWithPostCommit(ctx, &opts) // want "OBX002"
}

// Reprice has no post-commit function: nothing is published.
func (t *TransactionModel) Reprice(ctx context.Context, db *sqlx.DB) error {
	return runWithPostCommit(ctx, &TransactionOptions{
		DB: db,
		AtomicFunctionWithPostCommit: func(dbTx DBTransaction) (PostCommitFunction, error) {
			_, err := dbTx.ExecContext(ctx, "UPDATE payments SET amount = amount * 2")
			return nil, err
		},
	})
}
