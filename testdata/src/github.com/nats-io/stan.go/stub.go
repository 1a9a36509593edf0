package stan

type Msg struct{ Data []byte }

func (m *Msg) Ack() error { return nil }

type MsgHandler func(msg *Msg)
type AckHandler func(string, error)
type Subscription interface{}
type SubscriptionOption func()

type Conn interface {
	Publish(subject string, data []byte) error
	PublishAsync(subject string, data []byte, ah AckHandler) (string, error)
	Subscribe(subject string, cb MsgHandler, opts ...SubscriptionOption) (Subscription, error)
	QueueSubscribe(subject, qgroup string, cb MsgHandler, opts ...SubscriptionOption) (Subscription, error)
}
