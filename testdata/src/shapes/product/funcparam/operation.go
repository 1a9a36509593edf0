package funcparam

import (
	"context"
	"database/sql"
)

// opFunc is an operation's logic, run in the handler's transaction.
type opFunc func(ctx context.Context, tx *sql.Tx) error

// handleOperation begins a transaction, runs the operation on it,
// commits, then announces: the operation's write is on the committed
// transaction (CLI: every caller passes a writing operation), OBX002.
func (s *Store) handleOperation(ctx context.Context, op opFunc) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := op(ctx, tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return s.nc.Publish("operations.done", nil)
}

func captureStart(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO operations (kind) VALUES ('capture_start')")
	return err
}

func captureStop(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO operations (kind) VALUES ('capture_stop')")
	return err
}

func (s *Store) CaptureStart(ctx context.Context) error { return s.handleOperation(ctx, captureStart) }
func (s *Store) CaptureStop(ctx context.Context) error  { return s.handleOperation(ctx, captureStop) }
