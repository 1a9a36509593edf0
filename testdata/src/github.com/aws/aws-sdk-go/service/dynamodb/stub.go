// Package dynamodb stubs the AWS SDK for Go v1 DynamoDB client: the writes
// the catalog names, with their real signatures (aws.Context is
// context.Context).
package dynamodb

import "context"

type DynamoDB struct{}

type PutItemInput struct{ TableName *string }
type PutItemOutput struct{}
type UpdateItemInput struct{ TableName *string }
type UpdateItemOutput struct{}
type DeleteItemInput struct{ TableName *string }
type DeleteItemOutput struct{}
type BatchWriteItemInput struct{}
type BatchWriteItemOutput struct{}
type TransactWriteItemsInput struct{}
type TransactWriteItemsOutput struct{}

func (c *DynamoDB) PutItem(in *PutItemInput) (*PutItemOutput, error) { return nil, nil }
func (c *DynamoDB) PutItemWithContext(ctx context.Context, in *PutItemInput, opts ...any) (*PutItemOutput, error) {
	return nil, nil
}
func (c *DynamoDB) UpdateItem(in *UpdateItemInput) (*UpdateItemOutput, error) { return nil, nil }
func (c *DynamoDB) UpdateItemWithContext(ctx context.Context, in *UpdateItemInput, opts ...any) (*UpdateItemOutput, error) {
	return nil, nil
}
func (c *DynamoDB) DeleteItem(in *DeleteItemInput) (*DeleteItemOutput, error) { return nil, nil }
func (c *DynamoDB) DeleteItemWithContext(ctx context.Context, in *DeleteItemInput, opts ...any) (*DeleteItemOutput, error) {
	return nil, nil
}
func (c *DynamoDB) BatchWriteItem(in *BatchWriteItemInput) (*BatchWriteItemOutput, error) {
	return nil, nil
}
func (c *DynamoDB) BatchWriteItemWithContext(ctx context.Context, in *BatchWriteItemInput, opts ...any) (*BatchWriteItemOutput, error) {
	return nil, nil
}
func (c *DynamoDB) TransactWriteItems(in *TransactWriteItemsInput) (*TransactWriteItemsOutput, error) {
	return nil, nil
}
func (c *DynamoDB) TransactWriteItemsWithContext(ctx context.Context, in *TransactWriteItemsInput, opts ...any) (*TransactWriteItemsOutput, error) {
	return nil, nil
}
