// Package kgo is a stub of github.com/twmb/franz-go/pkg/kgo for fixtures.
package kgo

import "context"

type RecordHeader struct {
	Key   string
	Value []byte
}

type Record struct {
	Key     []byte
	Value   []byte
	Headers []RecordHeader
	Topic   string
}

type Fetches []struct{}

func (f Fetches) EachRecord(fn func(*Record)) {}
func (f Fetches) Records() []*Record          { return nil }

type Client struct{}

func (c *Client) PollFetches(ctx context.Context) Fetches            { return nil }
func (c *Client) PollRecords(ctx context.Context, max int) Fetches   { return nil }
func (c *Client) CommitUncommittedOffsets(ctx context.Context) error { return nil }
