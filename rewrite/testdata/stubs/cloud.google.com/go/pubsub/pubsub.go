// Package pubsub is a stub of cloud.google.com/go/pubsub for rewrite tests.
package pubsub

import "context"

type Message struct {
	Data        []byte
	Attributes  map[string]string
	OrderingKey string
}

type PublishResult struct{}

func (r *PublishResult) Get(ctx context.Context) (serverID string, err error) { return "", nil }

type Topic struct{}

func (t *Topic) Publish(ctx context.Context, msg *Message) *PublishResult { return nil }

type Client struct{}

func (c *Client) Topic(id string) *Topic { return nil }
