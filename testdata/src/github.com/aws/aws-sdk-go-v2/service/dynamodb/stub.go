package dynamodb

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

type Client struct{}
type Options struct{}

type PutItemInput struct {
	TableName *string
	Item      map[string]any
}
type PutItemOutput struct{}

func (c *Client) PutItem(ctx context.Context, in *PutItemInput, optFns ...func(*Options)) (*PutItemOutput, error) {
	return nil, nil
}

type UpdateItemInput struct {
	TableName *string
	Item      map[string]any
}
type UpdateItemOutput struct{}

func (c *Client) UpdateItem(ctx context.Context, in *UpdateItemInput, optFns ...func(*Options)) (*UpdateItemOutput, error) {
	return nil, nil
}

type DeleteItemInput struct {
	TableName *string
	Item      map[string]any
}
type DeleteItemOutput struct{}

func (c *Client) DeleteItem(ctx context.Context, in *DeleteItemInput, optFns ...func(*Options)) (*DeleteItemOutput, error) {
	return nil, nil
}

type BatchWriteItemInput struct {
	TableName *string
	Item      map[string]any
}
type BatchWriteItemOutput struct{}

func (c *Client) BatchWriteItem(ctx context.Context, in *BatchWriteItemInput, optFns ...func(*Options)) (*BatchWriteItemOutput, error) {
	return nil, nil
}

type TransactWriteItemsInput struct {
	TransactItems      []types.TransactWriteItem
	ClientRequestToken *string
}
type TransactWriteItemsOutput struct{}

func (c *Client) TransactWriteItems(ctx context.Context, in *TransactWriteItemsInput, optFns ...func(*Options)) (*TransactWriteItemsOutput, error) {
	return nil, nil
}

type GetItemInput struct {
	TableName *string
	Item      map[string]any
}
type GetItemOutput struct{}

func (c *Client) GetItem(ctx context.Context, in *GetItemInput, optFns ...func(*Options)) (*GetItemOutput, error) {
	return nil, nil
}

type QueryInput struct {
	TableName *string
	Item      map[string]any
}
type QueryOutput struct{}

func (c *Client) Query(ctx context.Context, in *QueryInput, optFns ...func(*Options)) (*QueryOutput, error) {
	return nil, nil
}
