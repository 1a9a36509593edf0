// Package river stubs github.com/riverqueue/river, a job queue in
// PostgreSQL: Insert commits the job on the client's own pool; InsertTx
// writes it in the caller's transaction.
package river

import "context"

type JobArgs interface{ Kind() string }

type InsertOpts struct{ Queue string }

type InsertManyParams struct {
	Args       JobArgs
	InsertOpts *InsertOpts
}

type JobInsertResult struct{}

type Client[TTx any] struct{}

func (c *Client[TTx]) Insert(ctx context.Context, args JobArgs, opts *InsertOpts) (*JobInsertResult, error) {
	return nil, nil
}
func (c *Client[TTx]) InsertTx(ctx context.Context, tx TTx, args JobArgs, opts *InsertOpts) (*JobInsertResult, error) {
	return nil, nil
}
func (c *Client[TTx]) InsertMany(ctx context.Context, params []InsertManyParams) ([]*JobInsertResult, error) {
	return nil, nil
}
func (c *Client[TTx]) InsertManyTx(ctx context.Context, tx TTx, params []InsertManyParams) ([]*JobInsertResult, error) {
	return nil, nil
}
func (c *Client[TTx]) InsertManyFast(ctx context.Context, params []InsertManyParams) (int, error) {
	return 0, nil
}
func (c *Client[TTx]) InsertManyFastTx(ctx context.Context, tx TTx, params []InsertManyParams) (int, error) {
	return 0, nil
}
