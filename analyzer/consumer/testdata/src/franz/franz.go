package franz

import (
	"context"
	"database/sql"

	"github.com/twmb/franz-go/pkg/kgo"
)

func pollBad(ctx context.Context, cl *kgo.Client, db *sql.DB) {
	fetches := cl.PollFetches(ctx) // want `writes to the database without the inbox`
	fetches.EachRecord(func(r *kgo.Record) {
		_, _ = db.ExecContext(ctx, "UPDATE accounts SET balance = balance + 10 WHERE id = $1", string(r.Key))
	})
}

func pollGood(ctx context.Context, cl *kgo.Client, db *sql.DB) {
	fetches := cl.PollRecords(ctx, 100)
	fetches.EachRecord(func(r *kgo.Record) {
		_, _ = db.ExecContext(ctx, "INSERT INTO ledger (entry_id, amount) VALUES ($1, 10) ON CONFLICT (entry_id) DO NOTHING", string(r.Key))
	})
}
