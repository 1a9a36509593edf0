// Package v2 stubs the CloudEvents SDK's top-level aliases.
package v2

import (
	"github.com/cloudevents/sdk-go/v2/client"
	"github.com/cloudevents/sdk-go/v2/event"
)

type (
	Client = client.Client
	Event  = event.Event
)

func NewEvent() Event { return event.New() }

func NewClient(obj any, opts ...any) (Client, error) { return client.New(obj, opts...) }
