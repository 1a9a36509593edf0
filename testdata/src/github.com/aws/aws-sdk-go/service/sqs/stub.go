// Package sqs stubs the AWS SDK for Go v1 SQS client: the calls the catalog
// names, with their real signatures (aws.Context is context.Context).
package sqs

import "context"

type SQS struct{}

type MessageAttributeValue struct {
	DataType    *string
	StringValue *string
}

type SendMessageInput struct {
	QueueUrl          *string
	MessageBody       *string
	MessageGroupId    *string
	MessageAttributes map[string]*MessageAttributeValue
}
type SendMessageOutput struct{ MessageId *string }

func (c *SQS) SendMessage(in *SendMessageInput) (*SendMessageOutput, error) { return nil, nil }
func (c *SQS) SendMessageWithContext(ctx context.Context, in *SendMessageInput, opts ...any) (*SendMessageOutput, error) {
	return nil, nil
}

type SendMessageBatchRequestEntry struct {
	Id                *string
	MessageBody       *string
	MessageGroupId    *string
	MessageAttributes map[string]*MessageAttributeValue
}

type SendMessageBatchInput struct {
	QueueUrl *string
	Entries  []*SendMessageBatchRequestEntry
}
type SendMessageBatchOutput struct{}

func (c *SQS) SendMessageBatch(in *SendMessageBatchInput) (*SendMessageBatchOutput, error) {
	return nil, nil
}
func (c *SQS) SendMessageBatchWithContext(ctx context.Context, in *SendMessageBatchInput, opts ...any) (*SendMessageBatchOutput, error) {
	return nil, nil
}
