package redis

import (
	"context"
	"time"
)

type IntCmd struct{}
type StringCmd struct{}
type StatusCmd struct{}
type BoolCmd struct{}
type XAddArgs struct {
	Stream string
	ID     string
	Values any
}

type Cmdable interface {
	Publish(ctx context.Context, channel string, message interface{}) *IntCmd
	XAdd(ctx context.Context, a *XAddArgs) *StringCmd
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	SetEX(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd
	HSet(ctx context.Context, key string, values ...interface{}) *IntCmd
	Del(ctx context.Context, keys ...string) *IntCmd
	Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd
}

type cmdable func(ctx context.Context, cmd any) error

func (c cmdable) Publish(ctx context.Context, channel string, message interface{}) *IntCmd {
	return nil
}
func (c cmdable) XAdd(ctx context.Context, a *XAddArgs) *StringCmd { return nil }
func (c cmdable) Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return nil
}
func (c cmdable) SetEX(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return nil
}
func (c cmdable) SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd {
	return nil
}
func (c cmdable) HSet(ctx context.Context, key string, values ...interface{}) *IntCmd { return nil }
func (c cmdable) Del(ctx context.Context, keys ...string) *IntCmd                     { return nil }
func (c cmdable) Expire(ctx context.Context, key string, expiration time.Duration) *BoolCmd {
	return nil
}

type Client struct {
	cmdable
}
