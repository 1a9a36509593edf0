// Package pubsub is a stub of cloud.google.com/go/pubsub for fixtures.
package pubsub

import "context"

type Message struct {
	ID         string
	Data       []byte
	Attributes map[string]string
}

func (m *Message) Ack() {}

type Subscription struct{}

func (s *Subscription) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	return nil
}
