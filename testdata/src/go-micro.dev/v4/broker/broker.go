// Package broker stubs go-micro.dev/v4/broker.
package broker

type Message struct {
	Header map[string]string
	Body   []byte
}

type PublishOption func(o *PublishOptions)

type PublishOptions struct{}

type Broker interface {
	Connect() error
	Publish(topic string, m *Message, opts ...PublishOption) error
}
