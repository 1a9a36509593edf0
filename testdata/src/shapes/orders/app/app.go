// Package app is the command side: handlers call a repository in another
// package, then publish through a wrapper.
package app

import (
	"context"
	"log"

	"shapes/orders/bus"
	"shapes/orders/domain"
	"shapes/orders/repo"
)

// Concrete dependencies: facts carry the write and the publish across packages.
type Service struct {
	repo *repo.PostgresRepo
	bus  *bus.EventBus
	prod *bus.Producer
}

func NewService(r *repo.PostgresRepo, b *bus.EventBus, p *bus.Producer) *Service {
	return &Service{repo: r, bus: b, prod: p}
}

func (s *Service) PlaceOrder(ctx context.Context, o domain.Order) error {
	if err := s.repo.Save(ctx, o); err != nil {
		return err
	}
	return s.bus.Dispatch(ctx, domain.Event{Type: "OrderPlaced", OrderID: o.ID}) // want `OBX001 publish \(\*kafka.Writer\).WriteMessages \(via \(\*bus.EventBus\).Dispatch -> \(\*bus.Producer\).Emit -> \(\*bus.Producer\).publish -> \(\*bus.Producer\).send\) after the autocommitted DB write \(\*sql.DB\).ExecContext \(via \(\*repo.PostgresRepo\).Save -> \(\*repo.PostgresRepo\).exec\) at app.go:26`
}

func (s *Service) ImportOrders(ctx context.Context, orders []domain.Order) error {
	if err := s.repo.SaveAll(ctx, orders); err != nil {
		return err
	}
	for _, o := range orders {
		if err := s.prod.Emit(ctx, domain.Event{Type: "OrderImported", OrderID: o.ID}); err != nil { // want `OBX002 .*via \(\*repo.PostgresRepo\).SaveAll`
			log.Printf("emit: %v", err)
		}
	}
	return nil
}

// Reads, then publishes: silent.
func (s *Service) Resend(ctx context.Context, id string) error {
	o, err := s.repo.Find(ctx, id)
	if err != nil {
		return err
	}
	return s.prod.Emit(ctx, domain.Event{Type: "OrderResent", OrderID: o.ID})
}

// Interfaces injected in a constructor: per-package facts cannot see
// through them (go vet is silent here); the CLI resolves them against the
// implementations it loaded (see TestResolver).
type Handler struct {
	orders domain.OrderRepository
	events domain.EventPublisher
}

func NewHandler(r domain.OrderRepository, p domain.EventPublisher) *Handler {
	return &Handler{orders: r, events: p}
}

func (h *Handler) Handle(ctx context.Context, o domain.Order) error {
	if err := h.orders.Save(ctx, o); err != nil {
		return err
	}
	return h.events.Emit(ctx, domain.Event{Type: "OrderPlaced", OrderID: o.ID})
}
