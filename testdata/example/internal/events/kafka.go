// Package events publishes domain events to the brokers. The publishers
// wrap the broker clients so that services depend on small interfaces.
package events

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/segmentio/kafka-go"

	"example.com/shop/internal/order"
)

// KafkaOrders publishes order events to Kafka.
type KafkaOrders struct {
	w *kafka.Writer
}

// NewKafkaOrders returns a publisher on w.
func NewKafkaOrders(w *kafka.Writer) *KafkaOrders { return &KafkaOrders{w: w} }

// OrderPlaced publishes an OrderPlaced event.
func (k *KafkaOrders) OrderPlaced(ctx context.Context, o order.Order) error {
	return k.send(ctx, "orders", o.ID, "OrderPlaced", o)
}

// OrderCancelled publishes an OrderCancelled event.
func (k *KafkaOrders) OrderCancelled(ctx context.Context, id string) error {
	return k.send(ctx, "orders", id, "OrderCancelled", map[string]string{"order_id": id})
}

func (k *KafkaOrders) send(ctx context.Context, topic, key, eventType string, v any) error {
	value, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", eventType, err)
	}
	return k.w.WriteMessages(ctx, kafka.Message{
		Topic:   topic,
		Key:     []byte(key),
		Value:   value,
		Headers: []kafka.Header{{Key: "event-type", Value: []byte(eventType)}},
	})
}

var _ order.Events = (*KafkaOrders)(nil)
