// Package kafka is a stub of github.com/segmentio/kafka-go for fixtures.
package kafka

import "context"

type Header struct {
	Key   string
	Value []byte
}

type Message struct {
	Topic   string
	Key     []byte
	Value   []byte
	Headers []Header
}

type Reader struct{}

func (r *Reader) FetchMessage(ctx context.Context) (Message, error)      { return Message{}, nil }
func (r *Reader) ReadMessage(ctx context.Context) (Message, error)       { return Message{}, nil }
func (r *Reader) CommitMessages(ctx context.Context, m ...Message) error { return nil }

type Writer struct{}

func (w *Writer) WriteMessages(ctx context.Context, m ...Message) error { return nil }
