// Package nats is a stub of github.com/nats-io/nats.go for fixtures.
package nats

type Header map[string][]string

func (h Header) Get(key string) string { return "" }

type Msg struct {
	Subject string
	Data    []byte
	Header  Header
}

func (m *Msg) Ack() error { return nil }

type MsgHandler func(msg *Msg)

type Subscription struct{}

func (s *Subscription) Fetch(batch int) ([]*Msg, error) { return nil, nil }

type SubOpt interface{}

type Conn struct{}

func (nc *Conn) Subscribe(subj string, cb MsgHandler) (*Subscription, error) { return nil, nil }
func (nc *Conn) QueueSubscribe(subj, queue string, cb MsgHandler) (*Subscription, error) {
	return nil, nil
}
func (nc *Conn) Publish(subj string, data []byte) error { return nil }

type JetStream interface {
	Subscribe(subj string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
	QueueSubscribe(subj, queue string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
}

type JetStreamContext interface {
	JetStream
}

func (nc *Conn) JetStream() (JetStreamContext, error) { return nil, nil }
