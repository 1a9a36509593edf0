// Package kafka is a stub of github.com/segmentio/kafka-go for rewrite tests.
package kafka

import (
	"context"
	"time"
)

type Header struct {
	Key   string
	Value []byte
}

type Message struct {
	Topic   string
	Key     []byte
	Value   []byte
	Headers []Header
	Time    time.Time
}

type Writer struct {
	Addr  string
	Topic string
}

func (w *Writer) WriteMessages(ctx context.Context, msgs ...Message) error { return nil }
