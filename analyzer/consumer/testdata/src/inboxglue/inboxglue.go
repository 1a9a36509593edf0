// Package inboxglue consumes through the generated inbox glue: no findings,
// and both consumers are listed as using the inbox.
package inboxglue

import (
	"context"

	"example.com/inbox"
	"github.com/IBM/sarama"
	"github.com/segmentio/kafka-go"
)

func run(ctx context.Context, r *kafka.Reader, g sarama.ConsumerGroup) {
	c := &inbox.Consumer{Name: "shipping"}
	_ = c.KafkaGo(ctx, r)
	_ = g.Consume(ctx, []string{"orders"}, &inbox.SaramaHandler{C: c})
}
