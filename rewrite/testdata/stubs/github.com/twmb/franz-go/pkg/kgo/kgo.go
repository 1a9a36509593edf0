// Package kgo is a stub of github.com/twmb/franz-go/pkg/kgo for rewrite tests.
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

type ProduceResult struct {
	Record *Record
	Err    error
}

type ProduceResults []ProduceResult

func (rs ProduceResults) FirstErr() error { return nil }

type Client struct{}

func (cl *Client) ProduceSync(ctx context.Context, rs ...*Record) ProduceResults        { return nil }
func (cl *Client) Produce(ctx context.Context, r *Record, promise func(*Record, error)) {}
