// Package dynamodb is a stub of github.com/aws/aws-sdk-go-v2/service/dynamodb for rewrite tests.
package dynamodb

import "context"

type Options struct{}

type PutItemInput struct {
	TableName *string
	Item      map[string]any
}

type PutItemOutput struct{}

type Client struct{}

func (c *Client) PutItem(ctx context.Context, params *PutItemInput, optFns ...func(*Options)) (*PutItemOutput, error) {
	return nil, nil
}
