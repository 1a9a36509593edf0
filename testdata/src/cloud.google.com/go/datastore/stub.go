package datastore

import "context"

type Client struct{}
type Key struct{ Kind, Name string }
type Mutation struct{}
type Transaction struct{}
type Commit struct{}
type PendingKey struct{}
type TransactionOption interface{}

func NewClient(ctx context.Context, projectID string) (*Client, error) { return &Client{}, nil }
func NameKey(kind, name string, parent *Key) *Key                      { return &Key{Kind: kind, Name: name} }
func NewInsert(k *Key, src any) *Mutation                              { return &Mutation{} }

func (c *Client) Put(ctx context.Context, key *Key, src any) (*Key, error) { return key, nil }
func (c *Client) PutMulti(ctx context.Context, keys []*Key, src any) ([]*Key, error) {
	return keys, nil
}
func (c *Client) Delete(ctx context.Context, key *Key) error                    { return nil }
func (c *Client) DeleteMulti(ctx context.Context, keys []*Key) error            { return nil }
func (c *Client) Mutate(ctx context.Context, muts ...*Mutation) ([]*Key, error) { return nil, nil }
func (c *Client) Get(ctx context.Context, key *Key, dst any) error              { return nil }
func (c *Client) NewTransaction(ctx context.Context, opts ...TransactionOption) (*Transaction, error) {
	return &Transaction{}, nil
}
func (c *Client) RunInTransaction(ctx context.Context, f func(tx *Transaction) error, opts ...TransactionOption) (*Commit, error) {
	return &Commit{}, f(&Transaction{})
}
func (t *Transaction) Put(key *Key, src any) (*PendingKey, error)           { return nil, nil }
func (t *Transaction) PutMulti(keys []*Key, src any) ([]*PendingKey, error) { return nil, nil }
func (t *Transaction) Delete(key *Key) error                                { return nil }
func (t *Transaction) DeleteMulti(keys []*Key) error                        { return nil }
func (t *Transaction) Mutate(muts ...*Mutation) ([]*PendingKey, error)      { return nil, nil }
func (t *Transaction) Get(key *Key, dst any) error                          { return nil }
func (t *Transaction) Commit() (*Commit, error)                             { return &Commit{}, nil }
func (t *Transaction) Rollback() error                                      { return nil }
