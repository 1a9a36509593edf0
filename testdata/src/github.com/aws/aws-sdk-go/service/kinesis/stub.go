// Package kinesis stubs the AWS SDK for Go v1 Kinesis client: the calls
// the catalog names, with their real signatures (aws.Context is
// context.Context).
package kinesis

import "context"

type Kinesis struct{}

type PutRecordInput struct {
	StreamName   *string
	PartitionKey *string
	Data         []byte
}
type PutRecordOutput struct{}

type PutRecordsRequestEntry struct {
	PartitionKey *string
	Data         []byte
}
type PutRecordsInput struct {
	StreamName *string
	Records    []*PutRecordsRequestEntry
}
type PutRecordsOutput struct{}

func (c *Kinesis) PutRecord(in *PutRecordInput) (*PutRecordOutput, error) { return nil, nil }
func (c *Kinesis) PutRecordWithContext(ctx context.Context, in *PutRecordInput, opts ...any) (*PutRecordOutput, error) {
	return nil, nil
}
func (c *Kinesis) PutRecords(in *PutRecordsInput) (*PutRecordsOutput, error) { return nil, nil }
func (c *Kinesis) PutRecordsWithContext(ctx context.Context, in *PutRecordsInput, opts ...any) (*PutRecordsOutput, error) {
	return nil, nil
}
