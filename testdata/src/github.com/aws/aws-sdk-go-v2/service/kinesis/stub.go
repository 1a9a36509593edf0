package kinesis

import "context"

type Client struct{}
type Options struct{}

type PutRecordInput struct {
	StreamName   *string
	PartitionKey *string
	Data         []byte
}
type PutRecordOutput struct{}

func (c *Client) PutRecord(ctx context.Context, in *PutRecordInput, optFns ...func(*Options)) (*PutRecordOutput, error) {
	return nil, nil
}

type PutRecordsInput struct {
	StreamName *string
	Records    []Entry
}
type PutRecordsOutput struct{}

func (c *Client) PutRecords(ctx context.Context, in *PutRecordsInput, optFns ...func(*Options)) (*PutRecordsOutput, error) {
	return nil, nil
}

type Entry struct {
	PartitionKey *string
	Data         []byte
}
