// Package enqueuefirst is an enqueue wrapper that queues the task and then
// records it (aidea-server's queue.Enqueue: asynq first, then a
// queue_tasks row): it publishes before its write, so its publish
// announces no write of its own. A handler that enqueues through it and
// then inserts the history row the task will update publishes before that
// write. A wrapper that writes first and then publishes announces its own
// write: the caller's later, unrelated insert is not its partner.
package enqueuefirst

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
)

type Queue struct {
	client *asynq.Client
	db     *sql.DB
}

// Enqueue queues, then records the task.
func (q *Queue) Enqueue(ctx context.Context, kind string) (string, error) {
	info, err := q.client.EnqueueContext(ctx, asynq.NewTask(kind, nil)) // want "OBX004"
	if err != nil {
		return "", err
	}
	if _, err := q.db.ExecContext(ctx, "INSERT INTO queue_tasks (task_id, kind) VALUES ($1, $2)", info.ID, kind); err != nil {
		return "", err
	}
	return info.ID, nil
}

type Island struct {
	queue *Queue
	db    *sql.DB
}

// Completions queues the generation, then inserts the history row.
func (c *Island) Completions(ctx context.Context, prompt string) error {
	taskID, err := c.queue.Enqueue(ctx, "deepai:completion") // want "OBX004"
	if err != nil {
		return err
	}
	_, err = c.db.ExecContext(ctx, "INSERT INTO creative_history (task_id, prompt) VALUES ($1, $2)", taskID, prompt)
	return err
}

// CreateAccount writes, then announces the account.
func (c *Island) CreateAccount(ctx context.Context, name string) (string, error) {
	if _, err := c.db.ExecContext(ctx, "INSERT INTO accounts (name) VALUES ($1)", name); err != nil {
		return "", err
	}
	_, err := c.queue.client.EnqueueContext(ctx, asynq.NewTask("account:created", nil)) // want "OBX001"
	return name, err
}

// Register creates the account, then inserts the device: no finding here.
func (c *Island) Register(ctx context.Context, name string) error {
	id, err := c.CreateAccount(ctx, name)
	if err != nil {
		return err
	}
	_, err = c.db.ExecContext(ctx, "INSERT INTO devices (account) VALUES ($1)", id)
	return err
}

// expire queues the expiry notice, then deletes the expired slots.
func (c *Island) expire(ctx context.Context) error {
	if _, err := c.queue.client.EnqueueContext(ctx, asynq.NewTask("slots:expired", nil)); err != nil { // want "OBX004"
		return err
	}
	_, err := c.db.ExecContext(ctx, "DELETE FROM slots WHERE expires_at < now()")
	return err
}

// monitor runs expire at start and on every tick: each call queues and
// deletes its own; no call's publish pairs with another call's delete.
func (c *Island) monitor(ctx context.Context, tick <-chan struct{}) {
	_ = c.expire(ctx)
	for {
		<-tick
		_ = c.expire(ctx)
	}
}
