// Package client stubs the CloudEvents client: Send and Request hand the
// event to the protocol it was built with (Kafka, AMQP, NATS, HTTP).
package client

import (
	"context"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/cloudevents/sdk-go/v2/protocol"
)

type Client interface {
	Send(ctx context.Context, e event.Event) protocol.Result
	Request(ctx context.Context, e event.Event) (*event.Event, protocol.Result)
	StartReceiver(ctx context.Context, fn any) error
}

func New(obj any, opts ...any) (Client, error) { return nil, nil }
