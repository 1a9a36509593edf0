package amqp

import (
	"context"
	"time"
)

type Client struct{}

type PublishOptions struct {
	Topic   string
	Payload []byte
}

type MessageHandler func(topic string, payload []byte)

func (c *Client) Publish(topic string, payload []byte) error                             { return nil }
func (c *Client) PublishContext(ctx context.Context, topic string, payload []byte) error { return nil }
func (c *Client) PublishWithOptions(opts *PublishOptions) error                          { return nil }
func (c *Client) PublishWithOptionsContext(ctx context.Context, opts *PublishOptions) error {
	return nil
}
func (c *Client) PublishWithConfirm(opts *PublishOptions, timeout time.Duration) error { return nil }
func (c *Client) PublishToQueue(queueName string, payload []byte) error                { return nil }
func (c *Client) PublishToQueueContext(ctx context.Context, queueName string, payload []byte) error {
	return nil
}
func (c *Client) PublishToStream(queueName string, payload []byte, props map[string]string) error {
	return nil
}
func (c *Client) PublishToStreamContext(ctx context.Context, queueName string, payload []byte, props map[string]string) error {
	return nil
}
func (c *Client) Subscribe(topic string, handler MessageHandler) error { return nil }

type QueueMessage struct{ Body []byte }

type QueueMessageHandler func(msg *QueueMessage)

func (c *Client) SubscribeToQueue(queueName, consumerGroup string, handler QueueMessageHandler) error {
	return nil
}
