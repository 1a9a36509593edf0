package events

import (
	"context"
	"encoding/json"
	"fmt"

	amqp "github.com/rabbitmq/amqp091-go"
)

// Payments publishes payment events to a RabbitMQ exchange.
type Payments struct {
	ch       *amqp.Channel
	exchange string
}

// NewPayments returns a publisher on ch.
func NewPayments(ch *amqp.Channel, exchange string) *Payments {
	return &Payments{ch: ch, exchange: exchange}
}

// PaymentRequested asks the payment provider adapter to charge an order.
func (p *Payments) PaymentRequested(ctx context.Context, orderID string, amountCents int64) error {
	body, err := json.Marshal(map[string]any{"order_id": orderID, "amount_cents": amountCents})
	if err != nil {
		return fmt.Errorf("encode payment request: %w", err)
	}
	return p.ch.PublishWithContext(ctx, p.exchange, "payment.requested", false, false, amqp.Publishing{
		ContentType: "application/json",
		MessageId:   orderID,
		Body:        body,
	})
}

// PaymentRefunded tells the other services that an order's payment was refunded.
func (p *Payments) PaymentRefunded(ctx context.Context, orderID string) error {
	return p.ch.PublishWithContext(ctx, p.exchange, "payment.refunded", false, false, amqp.Publishing{
		ContentType: "text/plain",
		MessageId:   orderID + ":refund",
		Body:        []byte(orderID),
	})
}
