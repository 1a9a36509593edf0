// Package azservicebus stubs the Azure Service Bus client's Sender: the
// calls the catalog names, with their real signatures.
package azservicebus

import (
	"context"
	"time"
)

type Message struct {
	Body                  []byte
	MessageID             *string
	SessionID             *string
	Subject               *string
	ApplicationProperties map[string]any
}

type AMQPAnnotatedMessage struct{}
type MessageBatch struct{}
type SendMessageOptions struct{}
type SendMessageBatchOptions struct{}
type SendAMQPAnnotatedMessageOptions struct{}
type ScheduleMessagesOptions struct{}

type Sender struct{}

func (s *Sender) SendMessage(ctx context.Context, message *Message, options *SendMessageOptions) error {
	return nil
}
func (s *Sender) SendMessageBatch(ctx context.Context, batch *MessageBatch, options *SendMessageBatchOptions) error {
	return nil
}
func (s *Sender) SendAMQPAnnotatedMessage(ctx context.Context, message *AMQPAnnotatedMessage, options *SendAMQPAnnotatedMessageOptions) error {
	return nil
}
func (s *Sender) ScheduleMessages(ctx context.Context, messages []*Message, scheduledEnqueueTime time.Time, options *ScheduleMessagesOptions) ([]int64, error) {
	return nil, nil
}
