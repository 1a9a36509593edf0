// Package schedule has the shapes of a webhooks product's start-up and
// workers: cron jobs registered at boot whose closures enqueue later, a
// read-through cache kept in a SQL table behind a key-value interface,
// routes registered with gin, and a bulk import whose loop calls a create
// that writes and announces by itself. The only dual writes are inside
// Endpoints.Create and the import route's handler.
package schedule

import (
	"context"
	"database/sql"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/hibiken/asynq"
	"github.com/robfig/cron/v3"
)

// Cache is a key-value cache with expiry; its implementation keeps the
// entries in a SQL table. Filling it is not a business write.
type Cache interface {
	Set(ctx context.Context, key string, v any, ttl time.Duration) error
	Get(ctx context.Context, key string, v any) error
	Delete(ctx context.Context, key string) error
}

type sqlCache struct{ db *sql.DB }

func (c *sqlCache) Set(ctx context.Context, key string, v any, ttl time.Duration) error {
	_, err := c.db.ExecContext(ctx, "INSERT INTO cache (key, value, expires_at) VALUES ($1, $2, now() + $3) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", key, v, ttl)
	return err
}

func (c *sqlCache) Get(ctx context.Context, key string, v any) error {
	return c.db.QueryRowContext(ctx, "SELECT value FROM cache WHERE key = $1 AND expires_at > now()", key).Scan(v)
}

func (c *sqlCache) Delete(ctx context.Context, key string) error {
	_, err := c.db.ExecContext(ctx, "DELETE FROM cache WHERE key = $1", key)
	return err
}

// Queue enqueues background jobs.
type Queue interface {
	Write(ctx context.Context, task string, payload []byte) error
}

type AsynqQueue struct{ c *asynq.Client }

func (q *AsynqQueue) Write(ctx context.Context, task string, payload []byte) error {
	_, err := q.c.EnqueueContext(ctx, asynq.NewTask(task, payload))
	return err
}

// Scheduler registers cron jobs; each tick enqueues the job's task.
type Scheduler struct {
	cron *cron.Cron
	q    Queue
	db   *sql.DB
}

func (s *Scheduler) RegisterTask(spec, task string) {
	s.cron.AddFunc(spec, func() {
		s.q.Write(context.Background(), task, nil)
	})
	// the monitoring page's registry row, written once at registration
	s.db.ExecContext(context.Background(), "INSERT INTO scheduler_registry (task, spec) VALUES ($1, $2) ON CONFLICT (task) DO UPDATE SET spec = EXCLUDED.spec", task, spec)
}

type Projects struct {
	cache Cache
	db    *sql.DB
}

// Fetch reads a project through the cache, filling it on a miss.
func (p *Projects) Fetch(ctx context.Context, id string) (string, error) {
	var name string
	if err := p.cache.Get(ctx, id, &name); err == nil && name != "" {
		return name, nil
	}
	err := p.db.QueryRowContext(ctx, "SELECT name FROM projects WHERE id = $1", id).Scan(&name)
	p.cache.Set(ctx, id, name, time.Minute)
	return name, err
}

// Start is main's wiring: a cache fill, then jobs registered. No finding.
func Start(ctx context.Context, s *Scheduler, projects *Projects) error {
	if _, err := projects.Fetch(ctx, "default"); err != nil {
		return err
	}
	s.RegisterTask("* * * * *", "refresh")
	s.RegisterTask("0 1 * * *", "retention")
	return nil
}

// Ingest fills the cache, then enqueues: no store write on the path.
func Ingest(ctx context.Context, projects *Projects, q Queue, id string) error {
	if _, err := projects.Fetch(ctx, id); err != nil {
		return err
	}
	return q.Write(ctx, "ingest", []byte(id))
}

type Endpoints struct {
	db *sql.DB
	q  *AsynqQueue
}

// Create writes the endpoint and announces it: the dual write is here.
func (e *Endpoints) Create(ctx context.Context, url string) error {
	if _, err := e.db.ExecContext(ctx, "INSERT INTO endpoints (url) VALUES ($1)", url); err != nil {
		return err
	}
	return e.q.Write(ctx, "endpoint.created", []byte(url)) // want "OBX001"
}

type Subscriptions struct{ db *sql.DB }

func (s *Subscriptions) Create(ctx context.Context, url string) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO subscriptions (url) VALUES ($1)", url)
	return err
}

// Onboard creates endpoints and their subscriptions: Create announces its
// own write; the subscription written after it (in this iteration or the
// one before) is not what it announces. No finding here.
func Onboard(ctx context.Context, e *Endpoints, subs *Subscriptions, urls []string) error {
	for _, u := range urls {
		if err := e.Create(ctx, u); err != nil {
			return err
		}
		if err := subs.Create(ctx, u); err != nil {
			return err
		}
	}
	return nil
}

// Routes registers handlers: registering runs none of them. Only the
// import handler writes and enqueues on one path.
func Routes(r *gin.Engine, e *Endpoints, subs *Subscriptions) {
	r.POST("/endpoints", func(c *gin.Context) {
		e.Create(context.Background(), "https://example.test")
	})
	r.POST("/subscriptions", func(c *gin.Context) {
		subs.Create(context.Background(), "https://example.test")
	})
	r.GET("/ping", func(c *gin.Context) {
		e.q.Write(context.Background(), "ping", nil)
	})
	r.POST("/import", func(c *gin.Context) {
		subs.Create(context.Background(), "https://example.test")
		e.q.Write(context.Background(), "imported", nil) // want "OBX001"
	})
}

// Consume hands each message to its handler; the endpoint handler writes
// and announces by itself, the cases are exclusive: the subscription
// written in another iteration is not its partner. No finding here.
func Consume(ctx context.Context, msgs []string, e *Endpoints, subs *Subscriptions) {
	for _, m := range msgs {
		switch m {
		case "subscription":
			subs.Create(ctx, m)
		case "endpoint":
			e.Create(ctx, m)
		}
	}
}
