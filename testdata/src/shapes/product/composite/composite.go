// Package composite has a run updater's shape: an Updater interface with a
// database implementation and a broker one, and a Composite that calls
// every listener in turn. One Composite.Update saves the run and announces
// it: a dual write where the loop calls the interface (CLI: the
// implementations split into a writer and a publisher, and the iterations
// run both). A single Updater value runs one of them: no finding.
package composite

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

type Run struct {
	ID    int64
	State string
}

type Updater interface {
	Update(ctx context.Context, run Run) error
}

type Composite struct{ listeners []Updater }

func (c Composite) Add(u Updater) Composite {
	c.listeners = append(c.listeners, u)
	return c
}

// Update runs every listener: the database one writes, the broker one
// publishes.
func (c Composite) Update(ctx context.Context, run Run) error {
	for _, l := range c.listeners {
		if err := l.Update(ctx, run); err != nil {
			return err
		}
	}
	return nil
}

type dbUpdater struct{ db *sql.DB }

func (u dbUpdater) Update(ctx context.Context, run Run) error {
	_, err := u.db.ExecContext(ctx, "UPDATE runs SET state = $1 WHERE id = $2", run.State, run.ID)
	return err
}

type natsUpdater struct{ nc *nats.Conn }

func (u natsUpdater) Update(ctx context.Context, run Run) error {
	return u.nc.Publish("runs.updated", []byte(run.State))
}

// Finish calls one updater value: whichever it is, it either writes or
// publishes. No finding.
func Finish(ctx context.Context, u Updater, run Run) error {
	run.State = "finished"
	return u.Update(ctx, run)
}

// Poller records the run through its updater (the composite, in
// production: its writer and publisher run together, they are not a
// queue's alternatives), then hands the job on: a dual write (CLI).
type Poller struct {
	updater Updater
	nc      *nats.Conn
}

func (p *Poller) Poll(ctx context.Context, run Run) error {
	if err := p.updater.Update(ctx, run); err != nil {
		return err
	}
	return p.nc.Publish("jobs.fetch", []byte(run.State))
}
