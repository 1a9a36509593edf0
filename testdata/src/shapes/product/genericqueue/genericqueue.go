// Package genericqueue has a job pipeline's shape: each step hands the
// next job on through a generic Enqueuer[T] interface, whose driver is a
// generic Queue[T] that publishes on NATS (or, without NATS, a channel).
// A step that records the run's state and then enqueues the next job is a
// dual write (CLI: through the generic interface, to the generic
// implementation instantiated with the interface's type argument).
package genericqueue

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/nats-io/nats.go"
)

type Enqueuer[T any] interface {
	Enqueue(ctx context.Context, job T)
}

type Job struct{ RunID int64 }

// Queue publishes each job on its subject.
type Queue[T any] struct {
	nc      *nats.Conn
	subject string
}

func (q *Queue[T]) Enqueue(ctx context.Context, job T) {
	body, _ := json.Marshal(job)
	_ = q.nc.Publish(q.subject, body)
}

// memoryQueue is the in-process fallback: no broker.
type memoryQueue[T any] struct{ ch chan T }

func (q *memoryQueue[T]) Enqueue(ctx context.Context, job T) { q.ch <- job }

// Lookup reads by key: a generic store with an Enqueue-free method set
// implements nothing here.
type Lookup[K comparable, V any] struct{ m map[K]V }

func (l *Lookup[K, V]) Get(k K) V { return l.m[k] }

type Step struct {
	db   *sql.DB
	next Enqueuer[Job]
}

// Process records the run's new state, then enqueues the next step's job:
// a dual write (the CLI resolves Enqueuer[Job] to Queue[Job]).
func (s *Step) Process(ctx context.Context, job Job) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE runs SET state = 'polling' WHERE id = $1", job.RunID); err != nil {
		return err
	}
	s.next.Enqueue(ctx, job)
	return nil
}

// Forward only hands the job on: no write, no finding.
func (s *Step) Forward(ctx context.Context, job Job) { s.next.Enqueue(ctx, job) }
