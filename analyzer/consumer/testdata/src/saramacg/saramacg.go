package saramacg

import (
	"context"
	"database/sql"

	"example.com/inbox"
	"github.com/IBM/sarama"
	"saramacg/models"
)

type badHandler struct{ db *sql.DB }

func (badHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (badHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (h badHandler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { // want ConsumeClaim:`consumer\(writes \(\*database/sql.DB\).Exec\)`
	for m := range c.Messages() {
		if _, err := h.db.Exec("UPDATE stock SET qty = qty - 1 WHERE sku = $1", string(m.Key)); err != nil {
			return err
		}
		s.MarkMessage(m, "")
	}
	return nil
}

type goodHandler struct{ db *sql.DB }

func (goodHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (goodHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (h *goodHandler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { // want ConsumeClaim:`consumer\(inbox\)`
	for m := range c.Messages() {
		err := inbox.Process(s.Context(), h.db, "stock", string(m.Headers[0].Value), func(tx *sql.Tx) error {
			_, err := tx.Exec("UPDATE stock SET qty = qty - 1 WHERE sku = $1", string(m.Key))
			return err
		})
		if err != nil {
			return err
		}
		s.MarkMessage(m, "")
	}
	return nil
}

func run(ctx context.Context, g sarama.ConsumerGroup, db *sql.DB) {
	_ = g.Consume(ctx, []string{"orders"}, badHandler{db: db}) // want `consumer handler \(saramacg.badHandler.ConsumeClaim\) writes to the database`
	_ = g.Consume(ctx, []string{"orders"}, &goodHandler{db: db})
}

// upsertHandler stores each request with the generated Upsert (ON
// CONFLICT DO NOTHING): a redelivery stores it once.
type upsertHandler struct{ db *sql.DB }

func (upsertHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (upsertHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (h upsertHandler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error {
	for m := range c.Messages() {
		r := models.Request{ID: string(m.Key)}
		if err := r.Upsert(s.Context(), h.db, false, []string{"id"}); err != nil {
			return err
		}
		s.MarkMessage(m, "")
	}
	return nil
}

// insertHandler inserts with the generated Insert: not repeatable.
type insertHandler struct{ db *sql.DB }

func (insertHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (insertHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (h insertHandler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { // want ConsumeClaim:`consumer\(writes \(\*database/sql.DB\).ExecContext\)`
	for m := range c.Messages() {
		r := models.Request{ID: string(m.Key)}
		if err := r.Insert(s.Context(), h.db); err != nil {
			return err
		}
		s.MarkMessage(m, "")
	}
	return nil
}

func runModels(ctx context.Context, g sarama.ConsumerGroup, db *sql.DB) {
	_ = g.Consume(ctx, []string{"requests"}, upsertHandler{db: db})
	_ = g.Consume(ctx, []string{"requests"}, insertHandler{db: db}) // want `consumer handler \(saramacg.insertHandler.ConsumeClaim\) writes to the database`
}
