package nats

import (
	"context"
	"time"
)

type Header map[string][]string
type Msg struct {
	Subject string
	Data    []byte
	Header  Header
}

func (m *Msg) Ack(opts ...AckOpt) error { return nil }

type AckOpt interface{}
type PubOpt interface{}
type SubOpt interface{}
type MsgHandler func(msg *Msg)
type Subscription struct{}

func (s *Subscription) Fetch(batch int, opts ...any) ([]*Msg, error) { return nil, nil }
func (s *Subscription) NextMsg(timeout time.Duration) (*Msg, error)  { return nil, nil }

type PubAck struct{}
type PubAckFuture interface{}

type Conn struct{}

func (nc *Conn) Publish(subj string, data []byte) error                      { return nil }
func (nc *Conn) PublishMsg(m *Msg) error                                     { return nil }
func (nc *Conn) PublishRequest(subj, reply string, data []byte) error        { return nil }
func (nc *Conn) Subscribe(subj string, cb MsgHandler) (*Subscription, error) { return nil, nil }
func (nc *Conn) QueueSubscribe(subj, queue string, cb MsgHandler) (*Subscription, error) {
	return nil, nil
}
func (nc *Conn) Request(subj string, data []byte, timeout time.Duration) (*Msg, error) {
	return nil, nil
}
func (nc *Conn) RequestWithContext(ctx context.Context, subj string, data []byte) (*Msg, error) {
	return nil, nil
}
func (nc *Conn) RequestMsg(msg *Msg, timeout time.Duration) (*Msg, error) { return nil, nil }
func (nc *Conn) RequestMsgWithContext(ctx context.Context, msg *Msg) (*Msg, error) {
	return nil, nil
}
func (nc *Conn) JetStream(opts ...any) (JetStreamContext, error) { return nil, nil }

type EncodedConn struct{}

func (c *EncodedConn) Publish(subject string, v any) error { return nil }
func (c *EncodedConn) Request(subject string, v any, vPtr any, timeout time.Duration) error {
	return nil
}
func (c *EncodedConn) RequestWithContext(ctx context.Context, subject string, v any, vPtr any) error {
	return nil
}

type JetStream interface {
	Publish(subj string, data []byte, opts ...PubOpt) (*PubAck, error)
	PublishMsg(m *Msg, opts ...PubOpt) (*PubAck, error)
	PublishAsync(subj string, data []byte, opts ...PubOpt) (PubAckFuture, error)
	PublishMsgAsync(m *Msg, opts ...PubOpt) (PubAckFuture, error)
	Subscribe(subj string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
	QueueSubscribe(subj, queue string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
}
type JetStreamManager interface{ StreamNames() <-chan string }
type JetStreamContext interface {
	JetStream
	JetStreamManager
}
