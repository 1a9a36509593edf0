package spanner

import (
	"context"
	"time"
)

type Client struct{}
type Mutation struct{}
type MutationGroup struct{ Mutations []*Mutation }
type Statement struct {
	SQL    string
	Params map[string]any
}
type TransactionOptions struct{}
type QueryOptions struct{}
type ApplyOption func()
type CommitResponse struct{ CommitTs time.Time }
type BatchWriteOptions struct{}
type BatchWriteResponseIterator struct{}

// ReadWriteTransaction buffers mutations and runs DML until it commits.
type ReadWriteTransaction struct{}

// ReadWriteStmtBasedTransaction is committed by its caller.
type ReadWriteStmtBasedTransaction struct{ ReadWriteTransaction }

func NewClient(ctx context.Context, database string) (*Client, error) { return &Client{}, nil }
func Insert(table string, cols []string, vals []any) *Mutation        { return &Mutation{} }
func Update(table string, cols []string, vals []any) *Mutation        { return &Mutation{} }

func (c *Client) Apply(ctx context.Context, ms []*Mutation, opts ...ApplyOption) (time.Time, error) {
	return time.Time{}, nil
}
func (c *Client) BatchWrite(ctx context.Context, mgs []*MutationGroup) *BatchWriteResponseIterator {
	return nil
}
func (c *Client) BatchWriteWithOptions(ctx context.Context, mgs []*MutationGroup, opts BatchWriteOptions) *BatchWriteResponseIterator {
	return nil
}
func (c *Client) PartitionedUpdate(ctx context.Context, statement Statement) (int64, error) {
	return 0, nil
}
func (c *Client) PartitionedUpdateWithOptions(ctx context.Context, statement Statement, opts QueryOptions) (int64, error) {
	return 0, nil
}
func (c *Client) ReadWriteTransaction(ctx context.Context, f func(context.Context, *ReadWriteTransaction) error) (time.Time, error) {
	return time.Time{}, f(ctx, &ReadWriteTransaction{})
}
func (c *Client) ReadWriteTransactionWithOptions(ctx context.Context, f func(context.Context, *ReadWriteTransaction) error, options TransactionOptions) (CommitResponse, error) {
	return CommitResponse{}, f(ctx, &ReadWriteTransaction{})
}
func (t *ReadWriteTransaction) BufferWrite(ms []*Mutation) error { return nil }
func (t *ReadWriteTransaction) Update(ctx context.Context, stmt Statement) (int64, error) {
	return 0, nil
}
func (t *ReadWriteTransaction) UpdateWithOptions(ctx context.Context, stmt Statement, opts QueryOptions) (int64, error) {
	return 0, nil
}
func (t *ReadWriteTransaction) BatchUpdate(ctx context.Context, stmts []Statement) ([]int64, error) {
	return nil, nil
}
func (t *ReadWriteTransaction) BatchUpdateWithOptions(ctx context.Context, stmts []Statement, opts QueryOptions) ([]int64, error) {
	return nil, nil
}
func NewReadWriteStmtBasedTransaction(ctx context.Context, c *Client) (*ReadWriteStmtBasedTransaction, error) {
	return &ReadWriteStmtBasedTransaction{}, nil
}
func NewReadWriteStmtBasedTransactionWithOptions(ctx context.Context, c *Client, options TransactionOptions) (*ReadWriteStmtBasedTransaction, error) {
	return &ReadWriteStmtBasedTransaction{}, nil
}
func (t *ReadWriteStmtBasedTransaction) Commit(ctx context.Context) (time.Time, error) {
	return time.Time{}, nil
}
func (t *ReadWriteStmtBasedTransaction) CommitWithReturnResp(ctx context.Context) (CommitResponse, error) {
	return CommitResponse{}, nil
}
func (t *ReadWriteStmtBasedTransaction) Rollback(ctx context.Context) {}
