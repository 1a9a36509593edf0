package mqtt

import "time"

type Token interface {
	Wait() bool
	WaitTimeout(time.Duration) bool
	Error() error
}

type Message interface {
	Topic() string
	Payload() []byte
}

type MessageHandler func(Client, Message)

type Client interface {
	Publish(topic string, qos byte, retained bool, payload interface{}) Token
	Subscribe(topic string, qos byte, callback MessageHandler) Token
}
