// Package consumer holds consumer-side dual writes: a message handler
// writes, then publishes a follow-up event, in a loop or under redelivery.
package consumer

import (
	"context"
	"database/sql"
	"github.com/avast/retry-go"
	"time"

	"github.com/IBM/sarama"
	"github.com/nats-io/nats.go"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kgo"
)

type Worker struct {
	db  *sql.DB
	r   *kafka.Reader
	w   *kafka.Writer
	nc  *nats.Conn
	kc  *kgo.Client
	out sarama.SyncProducer
}

// The fetch loop: write, publish the follow-up, commit the offset.
func (wk *Worker) Run(ctx context.Context) error {
	for {
		m, err := wk.r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if _, err := wk.db.ExecContext(ctx, "UPDATE shipments SET status = 'ready' WHERE order_id = $1", string(m.Key)); err != nil {
			continue
		}
		if err := wk.w.WriteMessages(ctx, kafka.Message{Topic: "shipments", Key: m.Key}); err != nil { // want `OBX001 publish \(\*kafka.Writer\).WriteMessages after the autocommitted DB write`
			continue
		}
		wk.r.CommitMessages(ctx, m)
	}
}

// The follow-up publish retried on its own after the write.
func (wk *Worker) handle(ctx context.Context, m kafka.Message) error {
	if _, err := wk.db.ExecContext(ctx, "INSERT INTO payments (order_id) VALUES ($1)", string(m.Key)); err != nil {
		return err
	}
	var err error
	for i := 0; i < 5; i++ {
		if _, _, err = wk.out.SendMessage(&sarama.ProducerMessage{Topic: "payments"}); err == nil { // want `OBX005 publish \(sarama.SyncProducer\).SendMessage in a retry loop`
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// A NATS handler closure: redelivery repeats the write and the publish.
func (wk *Worker) Subscribe() {
	wk.nc.Subscribe("orders.paid", func(m *nats.Msg) {
		wk.db.Exec("UPDATE invoices SET paid = true WHERE order_id = $1", string(m.Data))
		wk.nc.Publish("invoices.paid", m.Data) // want `OBX001`
		m.Ack()
	})
}

// franz-go poll loop writing and producing per record.
func (wk *Worker) Poll(ctx context.Context) {
	for {
		fs := wk.kc.PollFetches(ctx)
		fs.EachRecord(func(r *kgo.Record) {
			wk.db.ExecContext(ctx, "INSERT INTO audit (k) VALUES ($1)", string(r.Key))
			wk.kc.Produce(ctx, &kgo.Record{Topic: "audit", Key: r.Key}, nil) // want `OBX001`
		})
		wk.kc.CommitUncommittedOffsets(ctx)
	}
}

// Negative: a consumer that only acks and commits offsets.
func (wk *Worker) Drain(ctx context.Context) error {
	for {
		m, err := wk.r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if err := wk.r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// A sarama consumer-group handler: the claim loop writes and produces.
type claimHandler struct {
	db  *sql.DB
	out sarama.SyncProducer
}

func (h *claimHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (h *claimHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (h *claimHandler) ConsumeClaim(sess sarama.ConsumerGroupSession, claim sarama.ConsumerGroupClaim) error {
	for msg := range claim.Messages() {
		if _, err := h.db.Exec("INSERT INTO ledger (v) VALUES ($1)", msg.Value); err != nil {
			return err
		}
		if _, _, err := h.out.SendMessage(&sarama.ProducerMessage{Topic: "ledger"}); err != nil { // want `OBX001 publish \(sarama.SyncProducer\).SendMessage`
			return err
		}
		sess.MarkMessage(msg, "")
	}
	return nil
}

// The follow-up publish handed to a retry helper after the write.
func (wk *Worker) handleWithRetry(ctx context.Context, m kafka.Message) error {
	if _, err := wk.db.ExecContext(ctx, "UPDATE stock SET qty = qty - 1 WHERE sku = $1", string(m.Key)); err != nil {
		return err
	}
	return retry.Do(func() error {
		return wk.w.WriteMessages(ctx, kafka.Message{Topic: "stock"}) // want `OBX005 publish .* in a retry next to the DB write`
	})
}
