// Package payment charges orders. It keeps its ledger in PostgreSQL through
// database/sql and talks to the payment adapter over RabbitMQ.
package payment

import (
	"context"
	"database/sql"
	"fmt"

	"example.com/shop/internal/events"
)

// Ledger records payment attempts.
type Ledger struct {
	db *sql.DB
}

// NewLedger returns a ledger on db.
func NewLedger(db *sql.DB) *Ledger { return &Ledger{db: db} }

// Record inserts a payment attempt.
func (l *Ledger) Record(ctx context.Context, orderID string, amountCents int64) error {
	_, err := l.db.ExecContext(ctx,
		`INSERT INTO payments (order_id, amount_cents, status) VALUES ($1, $2, 'requested')`,
		orderID, amountCents)
	if err != nil {
		return fmt.Errorf("record payment for %s: %w", orderID, err)
	}
	return nil
}

// Service requests payments.
type Service struct {
	ledger *Ledger
	bus    *events.Payments
}

// NewService wires the payment service.
func NewService(ledger *Ledger, bus *events.Payments) *Service {
	return &Service{ledger: ledger, bus: bus}
}

// Charge asks for the payment first and records it afterwards.
func (s *Service) Charge(ctx context.Context, orderID string, amountCents int64) error {
	if err := s.bus.PaymentRequested(ctx, orderID, amountCents); err != nil { // scan: OBX004
		return err
	}
	return s.ledger.Record(ctx, orderID, amountCents)
}

// Refund marks the payment refunded and notifies in the background.
func (s *Service) Refund(ctx context.Context, orderID string) error {
	if _, err := s.ledger.db.ExecContext(ctx, `UPDATE payments SET status = 'refunded' WHERE order_id = $1`, orderID); err != nil {
		return fmt.Errorf("refund %s: %w", orderID, err)
	}
	go s.bus.PaymentRefunded(context.Background(), orderID) // scan: OBX005
	return nil
}
