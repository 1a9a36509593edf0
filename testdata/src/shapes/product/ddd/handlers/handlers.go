// Package handlers forwards domain events to the broker.
package handlers

import (
	"context"

	"github.com/nats-io/nats.go"

	"shapes/product/ddd/domain"
)

type Forwarder struct{ NC *nats.Conn }

func (f *Forwarder) OrderPlaced(ctx context.Context, e domain.Event) error {
	return f.NC.Publish("orders.placed", []byte(e.ID))
}
