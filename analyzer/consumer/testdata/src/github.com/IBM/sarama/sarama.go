// Package sarama is a stub of github.com/IBM/sarama for fixtures.
package sarama

import "context"

type RecordHeader struct{ Key, Value []byte }

type ConsumerMessage struct {
	Headers []*RecordHeader
	Key     []byte
	Value   []byte
	Topic   string
}

type ConsumerGroupSession interface {
	MarkMessage(msg *ConsumerMessage, metadata string)
	Context() context.Context
}

type ConsumerGroupClaim interface {
	Messages() <-chan *ConsumerMessage
}

type ConsumerGroupHandler interface {
	Setup(ConsumerGroupSession) error
	Cleanup(ConsumerGroupSession) error
	ConsumeClaim(ConsumerGroupSession, ConsumerGroupClaim) error
}

type ConsumerGroup interface {
	Consume(ctx context.Context, topics []string, handler ConsumerGroupHandler) error
	Close() error
}
