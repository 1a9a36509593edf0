// Package dispatch holds indirect dispatch: handler closures returned by
// factories, and an in-process dispatcher whose handlers publish.
package dispatch

import (
	"context"
	"database/sql"

	"github.com/rabbitmq/amqp091-go"
)

type Event struct{ Name, ID string }

type HandlerFunc func(ctx context.Context, e Event) error

// A factory returning a handler closure that writes and publishes.
func NewOrderPaidHandler(db *sql.DB, ch *amqp091.Channel) HandlerFunc {
	return func(ctx context.Context, e Event) error {
		if _, err := db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", e.ID); err != nil {
			return err
		}
		return ch.PublishWithContext(ctx, "orders", "order.paid", false, false, amqp091.Publishing{Body: []byte(e.ID)}) // want `OBX001 publish \(\*amqp091.Channel\).PublishWithContext`
	}
}

// A factory whose handler only publishes: silent.
func NewNotifyHandler(ch *amqp091.Channel) HandlerFunc {
	return func(ctx context.Context, e Event) error {
		return ch.PublishWithContext(ctx, "notify", e.Name, false, false, amqp091.Publishing{})
	}
}

// Dispatcher runs registered handlers in-process.
type Dispatcher struct{ handlers map[string][]HandlerFunc }

func (d *Dispatcher) Register(name string, h HandlerFunc) {
	d.handlers[name] = append(d.handlers[name], h)
}

func (d *Dispatcher) Dispatch(ctx context.Context, e Event) error {
	for _, h := range d.handlers[e.Name] {
		if err := h(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

type Service struct {
	db *sql.DB
	d  *Dispatcher
}

func NewService(db *sql.DB, ch *amqp091.Channel) *Service {
	d := &Dispatcher{handlers: map[string][]HandlerFunc{}}
	d.Register("OrderCancelled", func(ctx context.Context, e Event) error {
		return ch.Publish("orders", "order.cancelled", false, false, amqp091.Publishing{Body: []byte(e.ID)})
	})
	return &Service{db: db, d: d}
}

// The write, then the dispatcher whose registered handler publishes.
func (s *Service) Cancel(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE orders SET status = 'cancelled' WHERE id = $1", id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "OrderCancelled", ID: id}) // want `OBX001 publish \(\*amqp091.Channel\).Publish \(via \(\*dispatch.Dispatcher\).Dispatch`
}

// A dispatcher fed method values.
type Bus struct{ subs []HandlerFunc }

func (b *Bus) Subscribe(h HandlerFunc) { b.subs = append(b.subs, h) }

func (b *Bus) Publish(ctx context.Context, e Event) {
	for _, h := range b.subs {
		_ = h(ctx, e)
	}
}

type Notifier struct{ ch *amqp091.Channel }

func (n *Notifier) onShipped(ctx context.Context, e Event) error {
	return n.ch.Publish("orders", "order.shipped", false, false, amqp091.Publishing{Body: []byte(e.ID)})
}

func Wire(b *Bus, n *Notifier) { b.Subscribe(n.onShipped) }

func Ship(ctx context.Context, db *sql.DB, b *Bus, id string) error {
	if _, err := db.ExecContext(ctx, "UPDATE orders SET status = 'shipped' WHERE id = $1", id); err != nil {
		return err
	}
	b.Publish(ctx, Event{Name: "OrderShipped", ID: id}) // want `OBX001 publish \(\*amqp091.Channel\).Publish \(via \(\*dispatch.Bus\).Publish -> \(\*dispatch.Notifier\).onShipped\)`
	return nil
}

// A dispatcher type whose other methods convert values, string(s.State):
// a conversion runs no registered handler (helix's orchestrator was paired
// on every string(pr.State)).
type Orchestrator struct {
	db      *sql.DB
	onReady []HandlerFunc
	State   Status
}

type Status string

func (o *Orchestrator) OnReady(h HandlerFunc) { o.onReady = append(o.onReady, h) }

func (o *Orchestrator) fire(ctx context.Context, e Event) {
	for _, h := range o.onReady {
		_ = h(ctx, e)
	}
}

func NewOrchestrator(db *sql.DB, ch *amqp091.Channel) *Orchestrator {
	o := &Orchestrator{db: db}
	o.OnReady(func(ctx context.Context, e Event) error {
		return ch.Publish("tasks", "task.ready", false, false, amqp091.Publishing{Body: []byte(e.ID)})
	})
	return o
}

func (o *Orchestrator) Poll(ctx context.Context, id string) error {
	if _, err := o.db.ExecContext(ctx, "UPDATE tasks SET state = $1 WHERE id = $2", string(o.State), id); err != nil {
		return err
	}
	label := string(o.State)
	_ = label
	return nil
}

func (o *Orchestrator) Ready(ctx context.Context, id string) error {
	if _, err := o.db.ExecContext(ctx, "UPDATE tasks SET state = 'ready' WHERE id = $1", id); err != nil {
		return err
	}
	o.fire(ctx, Event{Name: string(o.State), ID: id}) // want `OBX001 publish \(\*amqp091.Channel\).Publish`
	return nil
}

// logField is a package-level function value (a logger's field helper).
var logField = func(k, v string) string { return k + "=" + v }

// Calls of values the receiver does not store run no registered handler: a
// package-level func var (webitel's wlog.String), a closure called in
// place, a func the method got elsewhere (a subscription's unsubscribe).
func (o *Orchestrator) Hangup(ctx context.Context, id string, unsubscribe func()) error {
	defer unsubscribe()
	if _, err := o.db.ExecContext(ctx, "UPDATE tasks SET state = 'hung_up' WHERE id = $1", id); err != nil {
		return err
	}
	_ = logField("id", id)
	go func() { _ = id }()
	return nil
}
