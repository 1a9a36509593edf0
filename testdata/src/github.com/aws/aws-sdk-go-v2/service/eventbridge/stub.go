package eventbridge

import "context"

type Client struct{}
type Options struct{}

type PutEventsInput struct{ Entries []Entry }
type PutEventsOutput struct{}

func (c *Client) PutEvents(ctx context.Context, in *PutEventsInput, optFns ...func(*Options)) (*PutEventsOutput, error) {
	return nil, nil
}

type Entry struct{ EventBusName, Source, DetailType, Detail *string }
