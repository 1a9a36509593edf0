// Package primitive stubs the RocketMQ client's message types.
package primitive

type Message struct {
	Topic string
	Body  []byte
}

func NewMessage(topic string, body []byte) *Message { return &Message{Topic: topic, Body: body} }

type SendResult struct{ MsgID string }
