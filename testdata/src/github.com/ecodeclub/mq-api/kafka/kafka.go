// Package kafka stubs the library's Kafka implementation: Produce writes
// with kafka-go.
package kafka

import (
	"context"

	mq "github.com/ecodeclub/mq-api"
	kafkago "github.com/segmentio/kafka-go"
)

type Producer struct{ writer *kafkago.Writer }

func (p *Producer) Produce(ctx context.Context, m *mq.Message) (*mq.ProducerResult, error) {
	return p.produce(ctx, m)
}

func (p *Producer) produce(ctx context.Context, m *mq.Message) (*mq.ProducerResult, error) {
	for {
		if err := p.writer.WriteMessages(ctx, kafkago.Message{Key: m.Key, Value: m.Value}); err == nil {
			return &mq.ProducerResult{}, nil
		}
	}
}

type MQ struct{}

func (q *MQ) Producer(topic string) (mq.Producer, error) {
	return &Producer{writer: &kafkago.Writer{Topic: topic}}, nil
}
