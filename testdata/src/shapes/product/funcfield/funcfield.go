// Package funcfield has an event-sourced service's shape: a command saves
// the aggregate's events in MongoDB, then publishes them on an event bus
// (an interface) whose NATS publisher calls a function kept in a field.
package funcfield

import (
	"context"
	"log"

	"go.mongodb.org/mongo-driver/mongo"

	"shapes/product/funcfield/bus"
)

type EventBus interface {
	Publish(ctx context.Context, subject string, event any) error
}

type Tracer interface {
	Tracer(msg string)
}

type Handler struct {
	events *mongo.Collection
	bus    EventBus
	tracer Tracer
	notify func(ctx context.Context, id string) // a hook given by the test: logs only
}

func Wire(conn any) (*Handler, error) {
	p, err := bus.New(nil, true, func(msg string) { log.Print(msg) })
	if err != nil {
		return nil, err
	}
	return &Handler{bus: p, tracer: p, notify: func(ctx context.Context, id string) { log.Print(id) }}, nil
}

// UpdateResource is a dual write (CLI): the bus's field holds conn.Publish
// or a JetStream publishing closure.
func (h *Handler) UpdateResource(ctx context.Context, id string) error {
	if _, err := h.events.InsertOne(ctx, map[string]string{"id": id}); err != nil {
		return err
	}
	return h.bus.Publish(ctx, "resources."+id, id)
}

// Touch calls hooks that only log: no finding.
func (h *Handler) Touch(ctx context.Context, id string) error {
	if _, err := h.events.UpdateOne(ctx, map[string]string{"id": id}, map[string]string{"t": "1"}); err != nil {
		return err
	}
	h.tracer.Tracer("touched " + id)
	h.notify(ctx, id)
	return nil
}
