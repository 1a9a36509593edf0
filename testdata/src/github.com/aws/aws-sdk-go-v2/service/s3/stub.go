package s3

import "context"

type Client struct{}
type Options struct{}

type PutObjectInput struct {
	Bucket *string
	Key    *string
}
type PutObjectOutput struct{}

func (c *Client) PutObject(ctx context.Context, in *PutObjectInput, optFns ...func(*Options)) (*PutObjectOutput, error) {
	return nil, nil
}
