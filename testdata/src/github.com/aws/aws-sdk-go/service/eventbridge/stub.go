// Package eventbridge stubs the AWS SDK for Go v1 EventBridge client: the
// calls the catalog names, with their real signatures (aws.Context is
// context.Context).
package eventbridge

import "context"

type EventBridge struct{}

type PutEventsRequestEntry struct {
	EventBusName *string
	DetailType   *string
	Detail       *string
}
type PutEventsInput struct{ Entries []*PutEventsRequestEntry }
type PutEventsOutput struct{}

func (c *EventBridge) PutEvents(in *PutEventsInput) (*PutEventsOutput, error) { return nil, nil }
func (c *EventBridge) PutEventsWithContext(ctx context.Context, in *PutEventsInput, opts ...any) (*PutEventsOutput, error) {
	return nil, nil
}
