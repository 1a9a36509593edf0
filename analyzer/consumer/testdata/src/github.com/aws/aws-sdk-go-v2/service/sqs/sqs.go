// Package sqs is a stub of github.com/aws/aws-sdk-go-v2/service/sqs for fixtures.
package sqs

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

type Options struct{}

type ReceiveMessageInput struct{ QueueUrl *string }

type ReceiveMessageOutput struct{ Messages []types.Message }

type Client struct{}

func (c *Client) ReceiveMessage(ctx context.Context, in *ReceiveMessageInput, optFns ...func(*Options)) (*ReceiveMessageOutput, error) {
	return nil, nil
}
