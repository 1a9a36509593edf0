// Package domain has an in-process event dispatcher: handlers are
// registered at start-up (in package wiring) and Publish runs them in the
// request, synchronously.
package domain

import "context"

type Event struct{ Name, ID string }

type Handler func(ctx context.Context, e Event) error

type Dispatcher struct{ handlers map[string][]Handler }

func (d *Dispatcher) On(name string, h Handler) {
	d.handlers[name] = append(d.handlers[name], h)
}

func (d *Dispatcher) Publish(ctx context.Context, events ...Event) error {
	for _, e := range events {
		for _, h := range d.handlers[e.Name] {
			if err := h(ctx, e); err != nil {
				return err
			}
		}
	}
	return nil
}
