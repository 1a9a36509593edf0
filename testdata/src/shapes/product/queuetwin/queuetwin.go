// Package queuetwin has a task-queue product's shape: a message queue
// interface with a RabbitMQ backend and a Postgres-table twin (one is
// configured per deployment), and a pub/sub interface over NATS. Sending
// on the queue and then on the pub/sub writes no business row: no finding.
// A store write followed by a send is a dual write (CLI: through the
// interfaces).
package queuetwin

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
	amqp "github.com/rabbitmq/amqp091-go"
)

type MessageQueue interface {
	SendMessage(ctx context.Context, queue string, body []byte) error
}

type rabbitMQ struct{ ch *amqp.Channel }

func (r *rabbitMQ) SendMessage(ctx context.Context, queue string, body []byte) error {
	return r.ch.PublishWithContext(ctx, "", queue, false, false, amqp.Publishing{Body: body})
}

// postgresMQ keeps the queue in a table: the broker of a deployment
// without RabbitMQ.
type postgresMQ struct{ db *sql.DB }

func (p *postgresMQ) SendMessage(ctx context.Context, queue string, body []byte) error {
	_, err := p.db.ExecContext(ctx, "INSERT INTO message_queue_items (queue, payload) VALUES ($1, $2)", queue, body)
	return err
}

type PubSub interface {
	Pub(ctx context.Context, topic string, body []byte) error
}

type natsPubSub struct{ nc *nats.Conn }

func (n *natsPubSub) Pub(ctx context.Context, topic string, body []byte) error {
	return n.nc.Publish(topic, body)
}

// PubTenantMessage sends on the queue and then on the tenant's stream:
// two sends, no business write. No finding.
func PubTenantMessage(ctx context.Context, mq MessageQueue, ps PubSub, tenant string, body []byte) error {
	if err := mq.SendMessage(ctx, "tasks", body); err != nil {
		return err
	}
	return ps.Pub(ctx, "tenant."+tenant, body)
}

type Tasks struct {
	db *sql.DB
	mq MessageQueue
}

// Fail records the failure, then sends a retry: a dual write.
func (t *Tasks) Fail(ctx context.Context, id string) error {
	if _, err := t.db.ExecContext(ctx, "UPDATE tasks SET status = 'failed' WHERE id = $1", id); err != nil {
		return err
	}
	return t.mq.SendMessage(ctx, "retries", []byte(id))
}

var _ = []any{&rabbitMQ{}, &postgresMQ{}, &natsPubSub{}}
