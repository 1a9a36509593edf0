// Package mqtt stubs the paho MQTT v3 client API fix rewrites.
package mqtt

import "time"

// Token is the handle of an asynchronous operation.
type Token interface {
	Wait() bool
	WaitTimeout(time.Duration) bool
	Done() <-chan struct{}
	Error() error
}

// Client is an MQTT client.
type Client interface {
	Publish(topic string, qos byte, retained bool, payload interface{}) Token
}
