// Package bus wraps the Kafka client: Emit is three calls away from it.
package bus

import (
	"context"
	"encoding/json"

	"github.com/segmentio/kafka-go"

	"shapes/orders/domain"
)

type Producer struct{ w *kafka.Writer }

func NewProducer(w *kafka.Writer) *Producer { return &Producer{w: w} }

func (p *Producer) Emit(ctx context.Context, e domain.Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return p.publish(ctx, "orders", e.OrderID, b)
}

func (p *Producer) publish(ctx context.Context, topic, key string, value []byte) error {
	return p.send(ctx, kafka.Message{Topic: topic, Key: []byte(key), Value: value})
}

func (p *Producer) send(ctx context.Context, m kafka.Message) error {
	return p.w.WriteMessages(ctx, m)
}

// EventBus adds one more layer: Dispatch -> Emit -> publish -> send -> client.
type EventBus struct{ p *Producer }

func NewEventBus(p *Producer) *EventBus { return &EventBus{p: p} }

func (b *EventBus) Dispatch(ctx context.Context, e domain.Event) error { return b.p.Emit(ctx, e) }
