// Package pulsar stubs the Apache Pulsar client: the Producer interface
// the catalog names, with its real signatures.
package pulsar

import "context"

type MessageID interface{ Serialize() []byte }

type ProducerMessage struct {
	Payload    []byte
	Key        string
	Properties map[string]string
}

type Producer interface {
	Topic() string
	Send(context.Context, *ProducerMessage) (MessageID, error)
	SendAsync(context.Context, *ProducerMessage, func(MessageID, *ProducerMessage, error))
}
