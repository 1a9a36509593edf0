// Package inbox is a stand-in for the generated inbox package.
package inbox

import (
	"context"
	"database/sql"

	"github.com/IBM/sarama"
	"github.com/segmentio/kafka-go"
)

// Process runs fn and records the message id in one transaction.
func Process(ctx context.Context, db *sql.DB, consumer, messageID string, fn func(*sql.Tx) error) error {
	return nil
}

// Consumer is the generated consumer glue.
type Consumer struct{ Name string }

// KafkaGo consumes r through the inbox.
func (c *Consumer) KafkaGo(ctx context.Context, r *kafka.Reader) error { return nil }

// SaramaHandler is a sarama.ConsumerGroupHandler that goes through the inbox.
type SaramaHandler struct{ C *Consumer }

func (h *SaramaHandler) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (h *SaramaHandler) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (h *SaramaHandler) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error {
	return nil
}
