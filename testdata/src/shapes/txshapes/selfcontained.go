package txshapes

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// A ledger's shape (blnk): each step records its rows and its lineage
// outbox row in one transaction of its own. Two steps in a row are two
// atomic units: the second step's outbox row is not the first step's write.
type Ledger struct{ db *sql.DB }

func (l *Ledger) record(ctx context.Context, id string) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO transactions (id) VALUES ($1)", id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO lineage_outbox (txn_id) VALUES ($1)", id); err != nil {
		return err
	}
	return tx.Commit()
}

// Void finalises one transaction and records its shadow: 0 findings.
func (l *Ledger) Void(ctx context.Context, id string) error {
	if err := l.record(ctx, id); err != nil {
		return err
	}
	return l.record(ctx, id+"-shadow")
}

// Mark writes on its own (autocommitted), then a step records its row and
// outbox row: the mark is not in that transaction.
func (l *Ledger) Mark(ctx context.Context, id string) error {
	if _, err := l.db.ExecContext(ctx, "UPDATE transactions SET marked = true WHERE id = $1", id); err != nil {
		return err
	}
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO lineage_outbox (txn_id) VALUES ($1)", id); err != nil { // want `OBX006`
		return err
	}
	return tx.Commit()
}

// RecordBatch records several rows and their outbox rows in one
// transaction; the outbox statement is put together in a strings.Builder.
// Two batches in a row are two atomic units: 0 findings.
func (l *Ledger) RecordBatch(ctx context.Context, ids []string) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, "INSERT INTO transactions (id) VALUES ($1)")
	if err != nil {
		return err
	}
	var q strings.Builder
	q.WriteString("INSERT INTO lineage_outbox (txn_id) VALUES ")
	args := []any{}
	for i, id := range ids {
		if _, err := stmt.ExecContext(ctx, id); err != nil {
			return err
		}
		if i > 0 {
			q.WriteString(",")
		}
		fmt.Fprintf(&q, "($%d)", i+1)
		args = append(args, id)
	}
	rows, err := tx.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return err
	}
	rows.Close()
	return tx.Commit()
}

// Settle runs a single step, then a batch.
func (l *Ledger) Settle(ctx context.Context, id string, ids []string) error {
	if err := l.record(ctx, id); err != nil {
		return err
	}
	return l.RecordBatch(ctx, ids)
}

// Store records a transaction and its outbox row atomically (blnk's
// datasource, behind an interface).
type Store interface {
	Record(ctx context.Context, id string) error
}

type sqlStore struct{ db *sql.DB }

func (s *sqlStore) Record(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO transactions (id) VALUES ($1)", id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO lineage_outbox (txn_id) VALUES ($1)", id); err != nil {
		return err
	}
	return tx.Commit()
}

type Books struct {
	db    *sql.DB
	store Store
}

// Finalize creates the balance if it is missing (autocommitted), then
// records the transaction with its own outbox row: the row announces the
// transaction, not the balance. 0 findings.
func (b *Books) Finalize(ctx context.Context, id string) error {
	if _, err := b.db.ExecContext(ctx, "INSERT INTO balances (id) VALUES ($1) ON CONFLICT DO NOTHING", id); err != nil {
		return err
	}
	return b.store.Record(ctx, id)
}

var _ Store = (*sqlStore)(nil)

// A worker's shape (matcher): each cycle updates its jobs (autocommitted)
// and then queues the event's outbox row on a handle of its own. The
// cycle's own body reports that (OBX006); the loop that runs a first
// cycle, then one per tick, pairs nothing across cycles.
type Cycler struct{ db *sql.DB }

func (c *Cycler) cycle(ctx context.Context) error {
	if _, err := c.db.ExecContext(ctx, "UPDATE jobs SET state = 'claimed' WHERE state = 'due'"); err != nil {
		return err
	}
	_, err := c.db.ExecContext(ctx, "INSERT INTO outbox (topic) VALUES ('jobs.claimed')") // want `OBX006`
	return err
}

func (c *Cycler) Run(ctx context.Context, ticks <-chan struct{}) {
	_ = c.cycle(ctx)
	for range ticks {
		_ = c.cycle(ctx)
	}
}
