// Package amqp stubs github.com/Azure/go-amqp, an AMQP 1.0 client: a
// Sender sends to the target its link was opened on.
package amqp

import "context"

type Message struct {
	Properties            *MessageProperties
	ApplicationProperties map[string]any
	Data                  [][]byte
}

type MessageProperties struct {
	MessageID any
	To        *string
	Subject   *string
}

func NewMessage(data []byte) *Message { return &Message{Data: [][]byte{data}} }

type (
	SendOptions    struct{}
	SenderOptions  struct{}
	ReceiveOptions struct{}
)

type Session struct{}

func (s *Session) NewSender(ctx context.Context, target string, opts *SenderOptions) (*Sender, error) {
	return &Sender{}, nil
}

type Sender struct{}

func (s *Sender) Send(ctx context.Context, msg *Message, opts *SendOptions) error { return nil }
func (s *Sender) Close(ctx context.Context) error                                 { return nil }

type Receiver struct{}

func (r *Receiver) Receive(ctx context.Context, opts *ReceiveOptions) (*Message, error) {
	return &Message{}, nil
}
func (r *Receiver) AcceptMessage(ctx context.Context, msg *Message) error { return nil }
