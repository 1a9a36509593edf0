// Package consumer handles messages from other services.
package consumer

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/segmentio/kafka-go"

	"example.com/shop/internal/order"
)

// PaymentResults consumes payment results and marks orders paid.
type PaymentResults struct {
	reader *kafka.Reader
	orders *order.PgRepository
	nc     *nats.Conn
}

// NewPaymentResults wires the consumer.
func NewPaymentResults(reader *kafka.Reader, orders *order.PgRepository, nc *nats.Conn) *PaymentResults {
	return &PaymentResults{reader: reader, orders: orders, nc: nc}
}

type paymentResult struct {
	OrderID string `json:"order_id"`
	OK      bool   `json:"ok"`
}

// Run consumes until ctx ends.
func (c *PaymentResults) Run(ctx context.Context) error {
	for {
		msg, err := c.reader.FetchMessage(ctx) // scan: OBX101
		if err != nil {
			return fmt.Errorf("fetch: %w", err)
		}
		if err := c.handle(ctx, msg); err != nil {
			return err
		}
		// Committing the consumer offset is an ack, not a publish.
		if err := c.reader.CommitMessages(ctx, msg); err != nil {
			return fmt.Errorf("commit offset: %w", err)
		}
	}
}

func (c *PaymentResults) handle(ctx context.Context, msg kafka.Message) error {
	var res paymentResult
	if err := json.Unmarshal(msg.Value, &res); err != nil {
		return nil // malformed: skip it
	}
	status := "payment_failed"
	if res.OK {
		status = "paid"
	}
	if err := c.orders.SetStatus(ctx, res.OrderID, status); err != nil {
		return err
	}
	return c.nc.Publish("orders."+status, []byte(res.OrderID)) // scan: OBX001
}
