// Package nats is a stub of github.com/nats-io/nats.go for rewrite tests.
package nats

import "context"

type Header map[string][]string

func (h Header) Set(key, value string) {}

type Msg struct {
	Subject string
	Header  Header
	Data    []byte
}

type PubAck struct {
	Stream   string
	Sequence uint64
}

type PubOpt interface{ isPubOpt() }

type Conn struct{}

func (nc *Conn) Publish(subj string, data []byte) error { return nil }
func (nc *Conn) PublishMsg(m *Msg) error                { return nil }
func (nc *Conn) RequestMsgWithContext(ctx context.Context, m *Msg) (*Msg, error) {
	return nil, nil
}

type JetStream interface {
	Publish(subj string, data []byte, opts ...PubOpt) (*PubAck, error)
	PublishMsg(m *Msg, opts ...PubOpt) (*PubAck, error)
}

type JetStreamContext interface {
	JetStream
}
