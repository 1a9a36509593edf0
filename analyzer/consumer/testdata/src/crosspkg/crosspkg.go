package crosspkg

import (
	"context"

	"example.com/mailer"
	"example.com/repo"
	"github.com/segmentio/kafka-go"
)

type consumer struct {
	r      *kafka.Reader
	orders *repo.Orders
	mail   *mailer.Client
}

func (c *consumer) run(ctx context.Context) error {
	m, err := c.r.FetchMessage(ctx) // want `writes to the database without the inbox`
	if err != nil {
		return err
	}
	return c.handle(ctx, m)
}

// handle is one level down; the write is in another package.
func (c *consumer) handle(ctx context.Context, m kafka.Message) error {
	return c.orders.SetStatus(ctx, string(m.Key), "paid")
}

func (c *consumer) project(ctx context.Context) error {
	m, err := c.r.FetchMessage(ctx)
	if err != nil {
		return err
	}
	return c.orders.Project(ctx, string(m.Key))
}

func (c *consumer) notify(ctx context.Context) error {
	m, err := c.r.ReadMessage(ctx) // want `calls external API mailer.Client.Send .* without an idempotency key`
	if err != nil {
		return err
	}
	if err := c.mail.Send("ops@example.com", m.Value, ""); err != nil {
		return err
	}
	return c.mail.Send("ops@example.com", m.Value, string(m.Headers[0].Value))
}
