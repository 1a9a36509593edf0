package txshapes

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/segmentio/kafka-go"
)

// A scheduler's read transaction stages run ids in a temporary table it
// creates (named at run time, dropped at commit) to join against, then
// publishes its cycle's events: the copy stores nothing (armada's
// insertRunIdsToTmpTable).

type Scheduler struct {
	conn *pgx.Conn
	w    *kafka.Writer
}

func stageRunIDs(ctx context.Context, tx pgx.Tx, ids []string) (string, error) {
	tmp := fmt.Sprintf("job_runs_%d", len(ids))
	if _, err := tx.Exec(ctx, fmt.Sprintf("CREATE TEMPORARY TABLE %s (run_id text) ON COMMIT DROP", tmp)); err != nil {
		return "", err
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{tmp}, []string{"run_id"}, nil)
	return tmp, err
}

func (s *Scheduler) Cycle(ctx context.Context, tx pgx.Tx, ids []string) error {
	if _, err := stageRunIDs(ctx, tx, ids); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	return s.w.WriteMessages(ctx, kafka.Message{Topic: "cycles"})
}

// A copy into a real table, named by a variable, is still a write.
func (s *Scheduler) Import(ctx context.Context, tx pgx.Tx, ids []string) error {
	table := "job_runs"
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{table}, []string{"run_id"}, nil); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	return s.w.WriteMessages(ctx, kafka.Message{Topic: "imported"}) // want "OBX002"
}
