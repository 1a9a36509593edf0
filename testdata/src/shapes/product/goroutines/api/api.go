// Package api publishes an event in a goroutine the team's helper starts,
// after an autocommitted write: OBX005. A job only scheduled is its own
// entry point: no finding at the scheduling function.
package api

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"

	"shapes/product/goroutines/sdk"
)

type API struct {
	DB         *sql.DB
	W          *kafka.Writer
	GoRoutines *sdk.GoRoutines
	Scheduler  *sdk.Scheduler
}

func (a *API) StopRun(ctx context.Context, id int64) error {
	if _, err := a.DB.ExecContext(ctx, "UPDATE run SET status = 'stopped' WHERE id = $1", id); err != nil {
		return err
	}
	a.GoRoutines.Exec(ctx, "publish-run", func(ctx context.Context) {
		a.W.WriteMessages(ctx, kafka.Message{Topic: "runs", Value: []byte("stopped")}) // want "OBX005"
	})
	return nil
}

func (a *API) PlanCleanup(ctx context.Context, id int64) error {
	if _, err := a.DB.ExecContext(ctx, "UPDATE run SET cleanup = true WHERE id = $1", id); err != nil {
		return err
	}
	a.Scheduler.Schedule(ctx, "cleanup-run", func(ctx context.Context) {
		a.W.WriteMessages(ctx, kafka.Message{Topic: "cleanups", Value: []byte("due")})
	})
	return nil
}

// Fanout hands one consumed event to sibling goroutines: one records a
// notification, another pushes to websockets. Neither announces the other:
// no finding.
func (a *API) Fanout(ctx context.Context, id int64) {
	a.GoRoutines.Exec(ctx, "notify", func(ctx context.Context) {
		a.DB.ExecContext(ctx, "INSERT INTO notification (run_id) VALUES ($1)", id)
	})
	go func() {
		a.W.WriteMessages(ctx, kafka.Message{Topic: "ws", Value: []byte("run")})
	}()
}

// EndRun starts a worker that unlocks queued runs (it writes on its own)
// and then announces the end the caller committed: the worker's write is
// not on the publish's path. No finding.
func (a *API) EndRun(ctx context.Context, id int64) {
	a.GoRoutines.Exec(ctx, "unlock", func(ctx context.Context) {
		a.DB.ExecContext(ctx, "UPDATE run SET locked = false WHERE parent = $1", id)
	})
	a.W.WriteMessages(ctx, kafka.Message{Topic: "runs", Value: []byte("ended")})
}

// unlockLater starts the unlocking worker: its write is the goroutine's.
func (a *API) unlockLater(ctx context.Context, id int64) {
	a.GoRoutines.Exec(ctx, "unlock", func(ctx context.Context) {
		a.DB.ExecContext(ctx, "UPDATE run SET locked = false WHERE parent = $1", id)
	})
}

// EndRunVia is EndRun with the worker started in a callee: still no finding.
func (a *API) EndRunVia(ctx context.Context, id int64) {
	a.unlockLater(ctx, id)
	a.W.WriteMessages(ctx, kafka.Message{Topic: "runs", Value: []byte("ended")})
}

// Push writes only on a branch that returns; the other path starts the
// goroutine that publishes. No run does both: no finding.
func (a *API) Push(ctx context.Context, id int64, migrate bool) error {
	if migrate {
		_, err := a.DB.ExecContext(ctx, "UPDATE run SET migrated = true WHERE id = $1", id)
		return err
	}
	a.GoRoutines.Exec(ctx, "push-result", func(ctx context.Context) {
		a.W.WriteMessages(ctx, kafka.Message{Topic: "pushes", Value: []byte("pushed")})
	})
	return nil
}
