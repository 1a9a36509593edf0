// Package sns is a stub of github.com/aws/aws-sdk-go-v2/service/sns for rewrite tests.
package sns

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/sns/types"
)

type Options struct{}

type PublishInput struct {
	Message           *string
	MessageAttributes map[string]types.MessageAttributeValue
	MessageGroupId    *string
	TopicArn          *string
}

type PublishOutput struct{ MessageId *string }

type Client struct{}

func (c *Client) Publish(ctx context.Context, params *PublishInput, optFns ...func(*Options)) (*PublishOutput, error) {
	return nil, nil
}
