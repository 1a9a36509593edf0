package kafka

type TopicPartition struct {
	Topic     *string
	Partition int32
}
type Header struct {
	Key   string
	Value []byte
}
type Message struct {
	TopicPartition TopicPartition
	Key            []byte
	Value          []byte
	Headers        []Header
}
type Event interface{ String() string }
type Producer struct{}
type Consumer struct{}

const PartitionAny = int32(-1)

func (p *Producer) Produce(msg *Message, deliveryChan chan Event) error { return nil }
func (p *Producer) ProduceChannel() chan *Message                       { return nil }
func (c *Consumer) ReadMessage(timeout int) (*Message, error)           { return nil, nil }
func (c *Consumer) Poll(timeoutMs int) Event                            { return nil }
func (c *Consumer) CommitMessage(m *Message) ([]TopicPartition, error)  { return nil, nil }
