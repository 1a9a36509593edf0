package outboxrelay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// InboxTable is the inbox table that Cleanup prunes (when it exists).
const InboxTable = "inbox"

// DB is the relay's handle on the outbox database: the relay's batches and the
// maintenance operations (status, cleanup, replay), which need no broker.
type DB struct{ s store }

// Close closes the connections DB opened.
func (db *DB) Close() { db.s.close() }

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.s.ping(ctx) }

// New returns a relay that publishes the outbox rows of db with pub.
func New(db *DB, pub Publisher, opts Options) (*Relay, error) {
	if db == nil || pub == nil {
		return nil, errors.New("outboxrelay.New: db and publisher are required")
	}
	return newRelay(db.s, pub, opts)
}

// Stats is the state of the outbox, computed in SQL (it needs no relay and no
// leadership, so any replica or `status --serve` can export it).
type Stats struct {
	Pending          int64         `json:"pending"`  // not yet published, not dead
	Retrying         int64         `json:"retrying"` // pending rows that failed at least once (in backoff)
	DeadLetters      int64         `json:"dead_letters"`
	Blocked          int64         `json:"blocked"` // pending rows held back behind a dead letter (block mode), out of the claim's index
	OldestPendingAge time.Duration `json:"-"`       // age of the oldest pending row; 0 when none
	OldestPendingSec float64       `json:"oldest_pending_age_seconds"`
}

// Stats returns the outbox counts.
func (db *DB) Stats(ctx context.Context) (Stats, error) {
	s, err := db.s.stats(ctx)
	if err != nil {
		return s, fmt.Errorf("outbox stats: %w", err)
	}
	s.OldestPendingSec = s.OldestPendingAge.Seconds()
	return s, nil
}

// CleanupOptions say what Cleanup deletes.
type CleanupOptions struct {
	Retention      time.Duration // delete outbox rows published longer ago than this (default 168h)
	InboxRetention time.Duration // delete inbox rows received longer ago than this; <0: keep the inbox (default 168h)
	BatchSize      int           // rows looked at per delete statement (default 1000)
	InboxTable     string        // default InboxTable
}

func (o CleanupOptions) withDefaults() CleanupOptions {
	if o.Retention <= 0 {
		o.Retention = 7 * 24 * time.Hour
	}
	if o.InboxRetention == 0 {
		o.InboxRetention = 7 * 24 * time.Hour
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 1000
	}
	if o.InboxTable == "" {
		o.InboxTable = InboxTable
	}
	return o
}

// CleanupResult counts what Cleanup deleted.
type CleanupResult struct {
	OutboxDeleted int64 `json:"outbox_deleted"`
	InboxDeleted  int64 `json:"inbox_deleted"`
}

// Cleanup deletes published outbox rows older than the retention, in small
// batches by primary key (short transactions, no long locks), then prunes the
// inbox the same way. Pending and dead-lettered rows are never deleted. Rows
// blocked behind a dead letter that is gone are released.
func (db *DB) Cleanup(ctx context.Context, o CleanupOptions) (CleanupResult, error) {
	return runCleanup(ctx, db.s, o.withDefaults(), nil)
}

// ReplayFilter selects the rows Replay requeues. At least one field must be
// set. Without Dead it selects published and dead-lettered rows (never rows
// still pending).
type ReplayFilter struct {
	Dead          bool      // only dead-lettered rows
	AggregateType string    // exact aggregate_type
	AggregateID   string    // exact aggregate_id
	EventType     string    // exact event_type
	Since         time.Time // created_at >= Since
	Until         time.Time // created_at < Until
}

func (f ReplayFilter) empty() bool {
	return !f.Dead && f.AggregateType == "" && f.AggregateID == "" && f.EventType == "" && f.Since.IsZero() && f.Until.IsZero()
}

// sqlDialect renders placeholders (n counts from 1) and timestamp arguments.
type sqlDialect struct {
	ph    func(n int) string
	ts    func(ph string) string // SQL expression of a timestamp argument
	tsArg func(time.Time) any
}

// where renders the filter as SQL conditions and their arguments.
func (f ReplayFilter) where(d sqlDialect) (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, strings.ReplaceAll(cond, "?", d.ph(len(args))))
	}
	addTime := func(cond string, t time.Time) {
		args = append(args, d.tsArg(t))
		conds = append(conds, strings.ReplaceAll(cond, "?", d.ts(d.ph(len(args)))))
	}
	if f.Dead {
		conds = append(conds, "dead_at IS NOT NULL AND published_at IS NULL")
	} else {
		conds = append(conds, "(published_at IS NOT NULL OR dead_at IS NOT NULL)")
	}
	if f.AggregateType != "" {
		add("aggregate_type = ?", f.AggregateType)
	}
	if f.AggregateID != "" {
		add("aggregate_id = ?", f.AggregateID)
	}
	if f.EventType != "" {
		add("event_type = ?", f.EventType)
	}
	if !f.Since.IsZero() {
		addTime("created_at >= ?", f.Since)
	}
	if !f.Until.IsZero() {
		addTime("created_at < ?", f.Until)
	}
	return strings.Join(conds, " AND "), args
}

// Replay counts the rows f selects and, when apply is true, requeues them:
// published_at, dead_at, attempts, last_error and next_attempt_at are reset,
// so the relay publishes them again in insert order, and the rows blocked
// behind a requeued dead letter are released. It returns the count.
func (db *DB) Replay(ctx context.Context, f ReplayFilter, apply bool) (int64, error) {
	if f.empty() {
		return 0, errors.New("replay: give at least one filter (dead letters, aggregate type/id, event type or a time range)")
	}
	n, err := db.s.replay(ctx, f, apply)
	if err != nil {
		return n, fmt.Errorf("replay: %w", err)
	}
	return n, nil
}
