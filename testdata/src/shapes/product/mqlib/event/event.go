// Package event declares one producer interface per event, each a plain
// (non-generic) interface that the generic mqx.GeneralProducer satisfies
// once instantiated with the event type.
package event

import (
	"context"

	mq "github.com/ecodeclub/mq-api"

	"shapes/product/mqlib/mqx"
)

type RegistrationEvent struct{ Uid int64 }

type RegistrationEventProducer interface {
	Produce(ctx context.Context, evt RegistrationEvent) error
}

func NewRegistrationEventProducer(q mq.MQ) (RegistrationEventProducer, error) {
	return mqx.NewGeneralProducer[RegistrationEvent](q, "user_registration_events")
}

// AuditEvent has a producer interface no instantiation satisfies.
type AuditEvent struct{ Action string }

type AuditProducer interface {
	Produce(ctx context.Context, evt AuditEvent) error
}
