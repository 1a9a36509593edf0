package kgo

import "context"

type RecordHeader struct {
	Key   string
	Value []byte
}
type Record struct {
	Topic   string
	Key     []byte
	Value   []byte
	Headers []RecordHeader
}
type ProduceResults []struct{}

func (rs ProduceResults) FirstErr() error { return nil }

type Fetches []struct{}

func (fs Fetches) EachRecord(fn func(*Record)) {}

type Client struct{}

func (c *Client) Produce(ctx context.Context, r *Record, promise func(*Record, error))    {}
func (c *Client) TryProduce(ctx context.Context, r *Record, promise func(*Record, error)) {}
func (c *Client) ProduceSync(ctx context.Context, rs ...*Record) ProduceResults           { return nil }
func (c *Client) PollFetches(ctx context.Context) Fetches                                 { return nil }
func (c *Client) PollRecords(ctx context.Context, n int) Fetches                          { return nil }
func (c *Client) CommitRecords(ctx context.Context, rs ...*Record) error                  { return nil }
func (c *Client) CommitUncommittedOffsets(ctx context.Context) error                      { return nil }
