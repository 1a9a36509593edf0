package pubsub

import "context"

type Message struct {
	ID          string
	Data        []byte
	Attributes  map[string]string
	OrderingKey string
}

func (m *Message) Ack()  {}
func (m *Message) Nack() {}

type PublishResult struct{}

func (r *PublishResult) Get(ctx context.Context) (string, error) { return "", nil }

type Client struct{}
type Topic struct{}
type Subscription struct{}

func (c *Client) Topic(id string) *Topic                                  { return nil }
func (c *Client) Subscription(id string) *Subscription                    { return nil }
func (t *Topic) Publish(ctx context.Context, msg *Message) *PublishResult { return nil }
func (s *Subscription) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	return nil
}
