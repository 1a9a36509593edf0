package sqs

import "context"

type Client struct{}
type Options struct{}

type SendMessageInput struct {
	QueueUrl          *string
	MessageBody       *string
	MessageGroupId    *string
	MessageAttributes map[string]any
}
type SendMessageOutput struct{}

func (c *Client) SendMessage(ctx context.Context, in *SendMessageInput, optFns ...func(*Options)) (*SendMessageOutput, error) {
	return nil, nil
}

type SendMessageBatchInput struct {
	QueueUrl *string
	Entries  []Entry
}
type SendMessageBatchOutput struct{}

func (c *Client) SendMessageBatch(ctx context.Context, in *SendMessageBatchInput, optFns ...func(*Options)) (*SendMessageBatchOutput, error) {
	return nil, nil
}

type ReceiveMessageInput struct{ QueueUrl *string }
type ReceiveMessageOutput struct{}

func (c *Client) ReceiveMessage(ctx context.Context, in *ReceiveMessageInput, optFns ...func(*Options)) (*ReceiveMessageOutput, error) {
	return nil, nil
}

type DeleteMessageInput struct {
	QueueUrl      *string
	ReceiptHandle *string
}
type DeleteMessageOutput struct{}

func (c *Client) DeleteMessage(ctx context.Context, in *DeleteMessageInput, optFns ...func(*Options)) (*DeleteMessageOutput, error) {
	return nil, nil
}

type Entry struct {
	MessageBody       *string
	MessageGroupId    *string
	MessageAttributes map[string]any
}
