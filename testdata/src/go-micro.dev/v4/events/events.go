// Package events stubs go-micro.dev/v4/events: a stream publishes through
// the backend it was built with.
package events

type PublishOption func(o *PublishOptions)

type PublishOptions struct{ Metadata map[string]string }

type ConsumeOption func(o *ConsumeOptions)

type ConsumeOptions struct{ Group string }

type Event struct {
	ID      string
	Topic   string
	Payload []byte
}

type Stream interface {
	Publish(topic string, msg interface{}, opts ...PublishOption) error
	Consume(topic string, opts ...ConsumeOption) (<-chan Event, error)
}

// Publish publishes on the default stream.
func Publish(topic string, msg interface{}, opts ...PublishOption) error { return nil }
