// Package rocketmq stubs the Apache RocketMQ client's Producer interface,
// which its constructors (NewProducer) return.
package rocketmq

import (
	"context"

	"github.com/apache/rocketmq-client-go/v2/primitive"
)

type Producer interface {
	Start() error
	Shutdown() error
	SendSync(ctx context.Context, mq ...*primitive.Message) (*primitive.SendResult, error)
	SendAsync(ctx context.Context, mq func(ctx context.Context, result *primitive.SendResult, err error), msg ...*primitive.Message) error
	SendOneWay(ctx context.Context, mq ...*primitive.Message) error
}

func NewProducer(opts ...any) (Producer, error) { return nil, nil }
