package external

import (
	"bytes"
	"context"
	"net/http"

	"cloud.google.com/go/pubsub"
	"github.com/nats-io/nats.go"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/stripe/stripe-go/v76/charge"
)

// PaymentClient talks to the payment provider over HTTP.
type PaymentClient struct{ hc *http.Client }

func (p *PaymentClient) Charge(ctx context.Context, cents int64, idempotencyKey string) error { // want Charge:`consumer\(external \(\*net/http.Client\).Do\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example/charges", nil)
	if err != nil {
		return err
	}
	if idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", idempotencyKey)
	}
	_, err = p.hc.Do(req)
	return err
}

type worker struct {
	payments *PaymentClient
	hc       *http.Client
}

func (w *worker) subscribe(nc *nats.Conn) {
	_, _ = nc.Subscribe("orders.placed", func(m *nats.Msg) { // want `calls external API external.PaymentClient.Charge .* without an idempotency key`
		_ = w.payments.Charge(context.Background(), 100, "")
	})
	_, _ = nc.Subscribe("orders.placed", func(m *nats.Msg) {
		key := m.Header.Get("outbox-id")
		_ = w.payments.Charge(context.Background(), 100, key)
	})
	_, _ = nc.Subscribe("users.created", func(m *nats.Msg) { // want `calls external API http.Post .* without an idempotency key`
		_, _ = http.Post("https://mail.example/send", "application/json", bytes.NewReader(m.Data))
	})
	// Not payment or email: no finding.
	_, _ = nc.Subscribe("metrics", func(m *nats.Msg) {
		_, _ = http.Post("http://localhost:9091/push", "text/plain", bytes.NewReader(m.Data))
	})
}

func (w *worker) consume(ch *amqp.Channel) {
	msgs, _ := ch.Consume("mail", "", false, false, false, false, nil)
	for d := range msgs {
		req, _ := http.NewRequest(http.MethodPost, "https://mail.example/send", bytes.NewReader(d.Body))
		req.Header.Set("Idempotency-Key", d.MessageId)
		_, _ = w.hc.Do(req)
		_ = d.Ack(false)
	}
}

func receive(ctx context.Context, sub *pubsub.Subscription) {
	_ = sub.Receive(ctx, func(ctx context.Context, m *pubsub.Message) { // want `calls external API charge.New .* without an idempotency key`
		_, _ = charge.New(&charge.Params{Amount: 100})
	})
	_ = sub.Receive(ctx, func(ctx context.Context, m *pubsub.Message) {
		_, _ = charge.New(&charge.Params{Amount: 100, IdempotencyKey: &m.ID})
	})
}
