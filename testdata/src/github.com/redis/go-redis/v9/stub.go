package redis

import (
	"context"
	"time"
)

type IntCmd struct{}
type StringCmd struct{}
type StatusCmd struct{}
type XAddArgs struct {
	Stream string
	ID     string
	Values any
}

type PubSubCmdable interface {
	Publish(ctx context.Context, channel string, message interface{}) *IntCmd
	SPublish(ctx context.Context, channel string, message interface{}) *IntCmd
}
type StreamCmdable interface {
	XAdd(ctx context.Context, a *XAddArgs) *StringCmd
}
type StringCmdable interface {
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
}
type HashCmdable interface {
	HSet(ctx context.Context, key string, values ...interface{}) *IntCmd
}
type GenericCmdable interface {
	Del(ctx context.Context, keys ...string) *IntCmd
}
type Cmdable interface {
	PubSubCmdable
	StreamCmdable
	StringCmdable
	HashCmdable
	GenericCmdable
}
type UniversalClient interface {
	Cmdable
	Close() error
}

type cmdable func(ctx context.Context, cmd any) error

func (c cmdable) Publish(ctx context.Context, channel string, message interface{}) *IntCmd {
	return nil
}
func (c cmdable) SPublish(ctx context.Context, channel string, message interface{}) *IntCmd {
	return nil
}
func (c cmdable) XAdd(ctx context.Context, a *XAddArgs) *StringCmd { return nil }
func (c cmdable) Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return nil
}
func (c cmdable) SetEx(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return nil
}
func (c cmdable) SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return nil
}
func (c cmdable) HSet(ctx context.Context, key string, values ...interface{}) *IntCmd { return nil }
func (c cmdable) Del(ctx context.Context, keys ...string) *IntCmd                     { return nil }
func (c cmdable) Expire(ctx context.Context, key string, expiration time.Duration) *StatusCmd {
	return nil
}

type Client struct {
	cmdable
}
