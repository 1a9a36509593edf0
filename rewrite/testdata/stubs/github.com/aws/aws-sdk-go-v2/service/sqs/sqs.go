// Package sqs is a stub of github.com/aws/aws-sdk-go-v2/service/sqs for rewrite tests.
package sqs

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

type Options struct{}

type SendMessageInput struct {
	MessageBody       *string
	QueueUrl          *string
	MessageAttributes map[string]types.MessageAttributeValue
	MessageGroupId    *string
}

type SendMessageOutput struct{ MessageId *string }

type Client struct{}

func (c *Client) SendMessage(ctx context.Context, params *SendMessageInput, optFns ...func(*Options)) (*SendMessageOutput, error) {
	return nil, nil
}
