// Package stagefeed is a scheduler of stages joined by channels (kunman's
// cron scheduler): the store stage's Update writes, then hands the entity
// to the channel its caller gave it, in a goroutine; the scheduler passes
// its notify channel, which the notify stage drains into a NATS publish,
// and its done channel, which nothing publishes from. Update is a dual
// write where it feeds notify and not where it only feeds done (CLI: the
// channels are followed program-wide).
package stagefeed

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

// Feed hands ent to ch without blocking the caller.
func Feed(ctx context.Context, ent any, ch chan any) {
	go func() {
		select {
		case <-ctx.Done():
		case ch <- ent:
		}
	}()
}

// Persistenter is a scheduler's store step.
type Persistenter interface {
	Update(ctx context.Context, ent any, notif, done chan any) error
}

// Notify is a scheduler's notify step.
type Notify interface {
	Notify(ctx context.Context, ent any) error
}

// store runs the store step on what it is fed.
type store struct {
	feeder, notif, done chan any
	persistenter        Persistenter
}

func newStore(ctx context.Context, notif, done chan any, p Persistenter) *store {
	s := &store{feeder: make(chan any), notif: notif, done: done, persistenter: p}
	go s.run(ctx)
	return s
}

func (s *store) run(ctx context.Context) {
	for {
		select {
		case ent := <-s.feeder:
			_ = s.persistenter.Update(ctx, ent, s.notif, s.done)
		case <-ctx.Done():
			return
		}
	}
}

// notifier runs the notify step on what it is fed.
type notifier struct {
	feeder chan any
	notify Notify
}

func (n *notifier) Feed(ctx context.Context, ent any) { Feed(ctx, ent, n.feeder) }

func (n *notifier) run(ctx context.Context) {
	for {
		select {
		case ent := <-n.feeder:
			_ = n.notify.Notify(ctx, ent)
		case <-ctx.Done():
			return
		}
	}
}

// Scheduler owns the channels between the stages.
type Scheduler struct {
	notif, done chan any
	notifier    *notifier
	finished    map[any]bool
}

func NewScheduler(ctx context.Context, p Persistenter, n Notify) *Scheduler {
	h := &Scheduler{notif: make(chan any), done: make(chan any), finished: map[any]bool{}}
	h.notifier = &notifier{feeder: make(chan any), notify: n}
	go h.notifier.run(ctx)
	newStore(ctx, h.notif, h.done, p)
	go h.run(ctx)
	return h
}

func (h *Scheduler) run(ctx context.Context) {
	for {
		select {
		case ent := <-h.notif:
			h.notifier.Feed(ctx, ent)
		case ent := <-h.done:
			h.finished[ent] = true
		case <-ctx.Done():
			return
		}
	}
}

// natsNotify publishes the notification.
type natsNotify struct{ nc *nats.Conn }

func (n *natsNotify) Notify(ctx context.Context, ent any) error {
	return n.nc.Publish("withdraw.reviewing", []byte("{}"))
}

// withdrawStore writes the withdraw, then feeds notify: a dual write.
type withdrawStore struct{ db *sql.DB }

func (w *withdrawStore) Update(ctx context.Context, ent any, notif, done chan any) error {
	defer Feed(ctx, ent, done)
	if _, err := w.db.ExecContext(ctx, "UPDATE withdraws SET state = 'reviewing' WHERE id = $1", ent); err != nil {
		return err
	}
	Feed(ctx, ent, notif)
	return nil
}

// reviewStore writes and only feeds done: nothing is published.
type reviewStore struct{ db *sql.DB }

func (r *reviewStore) Update(ctx context.Context, ent any, notif, done chan any) error {
	defer Feed(ctx, ent, done)
	_, err := r.db.ExecContext(ctx, "UPDATE reviews SET state = 'done' WHERE id = $1", ent)
	return err
}

var (
	_ Persistenter = (*withdrawStore)(nil)
	_ Persistenter = (*reviewStore)(nil)
	_ Notify       = (*natsNotify)(nil)
)
