// Package domain declares the ports a service is built from.
package domain

import "context"

type Order struct{ ID, Status string }

type Event struct {
	Type    string
	OrderID string
}

// OrderRepository is implemented by repo.PostgresRepo.
type OrderRepository interface {
	Save(ctx context.Context, o Order) error
}

// EventPublisher is implemented by bus.Producer.
type EventPublisher interface {
	Emit(ctx context.Context, e Event) error
}
