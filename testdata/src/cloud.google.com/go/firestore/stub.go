package firestore

import "context"

type Client struct{}
type CollectionRef struct{}
type DocumentRef struct{}
type Transaction struct{}
type WriteBatch struct{}
type WriteResult struct{}
type Update struct{}

func (c *Client) Collection(path string) *CollectionRef { return nil }
func (c *Client) Batch() *WriteBatch                    { return nil }
func (c *Client) RunTransaction(ctx context.Context, f func(context.Context, *Transaction) error) error {
	return nil
}
func (c *CollectionRef) Doc(id string) *DocumentRef { return nil }
func (c *CollectionRef) Add(ctx context.Context, data any) (*DocumentRef, *WriteResult, error) {
	return nil, nil, nil
}
func (d *DocumentRef) Set(ctx context.Context, data any) (*WriteResult, error)      { return nil, nil }
func (d *DocumentRef) Create(ctx context.Context, data any) (*WriteResult, error)   { return nil, nil }
func (d *DocumentRef) Update(ctx context.Context, u []Update) (*WriteResult, error) { return nil, nil }
func (d *DocumentRef) Delete(ctx context.Context) (*WriteResult, error)             { return nil, nil }
func (t *Transaction) Set(d *DocumentRef, data any) error                           { return nil }
func (t *Transaction) Create(d *DocumentRef, data any) error                        { return nil }
func (t *Transaction) Update(d *DocumentRef, u []Update) error                      { return nil }
func (t *Transaction) Delete(d *DocumentRef) error                                  { return nil }
func (b *WriteBatch) Set(d *DocumentRef, data any) *WriteBatch                      { return b }
func (b *WriteBatch) Commit(ctx context.Context) ([]*WriteResult, error)            { return nil, nil }
