package pubsubc

import (
	"context"
	"database/sql"

	"cloud.google.com/go/pubsub"
	"example.com/inbox"
)

type svc struct{ db *sql.DB }

func (s *svc) store(ctx context.Context, body []byte) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO events (body) VALUES ($1)", body)
	return err
}

func (s *svc) receiveBad(ctx context.Context, sub *pubsub.Subscription) error {
	return sub.Receive(ctx, func(ctx context.Context, m *pubsub.Message) { // want `writes to the database without the inbox`
		if err := s.store(ctx, m.Data); err == nil {
			m.Ack()
		}
	})
}

func (s *svc) handle(ctx context.Context, m *pubsub.Message) {
	err := inbox.Process(ctx, s.db, "events", m.ID, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "INSERT INTO events (body) VALUES ($1)", m.Data)
		return err
	})
	if err == nil {
		m.Ack()
	}
}

func (s *svc) receiveGood(ctx context.Context, sub *pubsub.Subscription) error {
	return sub.Receive(ctx, s.handle)
}
