package sarama

import "context"

type Encoder interface{ Encode() ([]byte, error) }
type StringEncoder string

func (s StringEncoder) Encode() ([]byte, error) { return []byte(s), nil }

type ByteEncoder []byte

func (b ByteEncoder) Encode() ([]byte, error) { return b, nil }

type RecordHeader struct{ Key, Value []byte }
type ProducerMessage struct {
	Topic   string
	Key     Encoder
	Value   Encoder
	Headers []RecordHeader
}
type ConsumerMessage struct {
	Topic string
	Value []byte
}

type SyncProducer interface {
	SendMessage(msg *ProducerMessage) (partition int32, offset int64, err error)
	SendMessages(msgs []*ProducerMessage) error
	Close() error
}
type AsyncProducer interface {
	Input() chan<- *ProducerMessage
	Close() error
}
type ConsumerGroupSession interface {
	MarkMessage(msg *ConsumerMessage, metadata string)
	Commit()
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
}
type PartitionConsumer interface {
	Messages() <-chan *ConsumerMessage
}

// ProducerError is what an AsyncProducer reports on its Errors channel.
type ProducerError struct {
	Msg *ProducerMessage
	Err error
}

func (pe ProducerError) Error() string { return pe.Err.Error() }
