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
type Publisher struct{}
type Subscriber struct{}

func (c *Client) Publisher(id string) *Publisher                              { return nil }
func (c *Client) Subscriber(id string) *Subscriber                            { return nil }
func (p *Publisher) Publish(ctx context.Context, msg *Message) *PublishResult { return nil }
func (s *Subscriber) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	return nil
}
