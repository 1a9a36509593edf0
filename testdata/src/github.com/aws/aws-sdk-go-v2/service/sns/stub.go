package sns

import "context"

type Client struct{}
type Options struct{}

type PublishInput struct {
	TopicArn          *string
	TargetArn         *string
	PhoneNumber       *string
	Message           *string
	MessageGroupId    *string
	MessageAttributes map[string]any
}
type PublishOutput struct{}

func (c *Client) Publish(ctx context.Context, in *PublishInput, optFns ...func(*Options)) (*PublishOutput, error) {
	return nil, nil
}

type PublishBatchInput struct {
	TopicArn                   *string
	PublishBatchRequestEntries []Entry
}
type PublishBatchOutput struct{}

func (c *Client) PublishBatch(ctx context.Context, in *PublishBatchInput, optFns ...func(*Options)) (*PublishBatchOutput, error) {
	return nil, nil
}

type Entry struct {
	Message           *string
	MessageGroupId    *string
	MessageAttributes map[string]any
}
