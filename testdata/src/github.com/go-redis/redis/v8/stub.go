package redis

import (
	"context"
	"time"
)

type IntCmd struct{}
type StringCmd struct{}
type StatusCmd struct{}
type StringSliceCmd struct{}
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
	LPush(ctx context.Context, key string, values ...interface{}) *IntCmd
	RPush(ctx context.Context, key string, values ...interface{}) *IntCmd
	LPushX(ctx context.Context, key string, values ...interface{}) *IntCmd
	RPushX(ctx context.Context, key string, values ...interface{}) *IntCmd
	BLPop(ctx context.Context, timeout time.Duration, keys ...string) *StringSliceCmd
	BRPop(ctx context.Context, timeout time.Duration, keys ...string) *StringSliceCmd
	BRPopLPush(ctx context.Context, source, destination string, timeout time.Duration) *StringCmd
	BLMove(ctx context.Context, source, destination, srcpos, destpos string, timeout time.Duration) *StringCmd
	LPop(ctx context.Context, key string) *StringCmd
	RPop(ctx context.Context, key string) *StringCmd
	RPopLPush(ctx context.Context, source, destination string) *StringCmd
	LMove(ctx context.Context, source, destination, srcpos, destpos string) *StringCmd
	LPopCount(ctx context.Context, key string, count int) *StringSliceCmd
	RPopCount(ctx context.Context, key string, count int) *StringSliceCmd
	LTrim(ctx context.Context, key string, start, stop int64) *StatusCmd
	ZAdd(ctx context.Context, key string, members ...*Z) *IntCmd
	ZAddNX(ctx context.Context, key string, members ...*Z) *IntCmd
	ZAddArgs(ctx context.Context, key string, args ZAddArgs) *IntCmd
	ZPopMin(ctx context.Context, key string, count ...int64) *ZSliceCmd
	ZPopMax(ctx context.Context, key string, count ...int64) *ZSliceCmd
	BZPopMin(ctx context.Context, timeout time.Duration, keys ...string) *ZWithKeyCmd
	BZPopMax(ctx context.Context, timeout time.Duration, keys ...string) *ZWithKeyCmd
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

func (c cmdable) LPush(ctx context.Context, key string, values ...interface{}) *IntCmd  { return nil }
func (c cmdable) RPush(ctx context.Context, key string, values ...interface{}) *IntCmd  { return nil }
func (c cmdable) LPushX(ctx context.Context, key string, values ...interface{}) *IntCmd { return nil }
func (c cmdable) RPushX(ctx context.Context, key string, values ...interface{}) *IntCmd { return nil }
func (c cmdable) BLPop(ctx context.Context, timeout time.Duration, keys ...string) *StringSliceCmd {
	return nil
}
func (c cmdable) BRPop(ctx context.Context, timeout time.Duration, keys ...string) *StringSliceCmd {
	return nil
}
func (c cmdable) BRPopLPush(ctx context.Context, source, destination string, timeout time.Duration) *StringCmd {
	return nil
}
func (c cmdable) BLMove(ctx context.Context, source, destination, srcpos, destpos string, timeout time.Duration) *StringCmd {
	return nil
}
func (c cmdable) LPop(ctx context.Context, key string) *StringCmd                      { return nil }
func (c cmdable) RPop(ctx context.Context, key string) *StringCmd                      { return nil }
func (c cmdable) RPopLPush(ctx context.Context, source, destination string) *StringCmd { return nil }
func (c cmdable) LMove(ctx context.Context, source, destination, srcpos, destpos string) *StringCmd {
	return nil
}
func (c cmdable) LPopCount(ctx context.Context, key string, count int) *StringSliceCmd { return nil }
func (c cmdable) RPopCount(ctx context.Context, key string, count int) *StringSliceCmd { return nil }
func (c cmdable) LTrim(ctx context.Context, key string, start, stop int64) *StatusCmd  { return nil }

type Client struct {
	cmdable
}

// sorted sets
type Z struct {
	Score  float64
	Member interface{}
}
type ZAddArgs struct {
	NX      bool
	Members []Z
}
type ZSliceCmd struct{}
type ZWithKeyCmd struct{}

func (c cmdable) ZAdd(ctx context.Context, key string, members ...*Z) *IntCmd   { return nil }
func (c cmdable) ZAddNX(ctx context.Context, key string, members ...*Z) *IntCmd { return nil }
func (c cmdable) ZAddArgs(ctx context.Context, key string, args ZAddArgs) *IntCmd {
	return nil
}
func (c cmdable) ZPopMin(ctx context.Context, key string, count ...int64) *ZSliceCmd { return nil }
func (c cmdable) ZPopMax(ctx context.Context, key string, count ...int64) *ZSliceCmd { return nil }
func (c cmdable) BZPopMin(ctx context.Context, timeout time.Duration, keys ...string) *ZWithKeyCmd {
	return nil
}
func (c cmdable) BZPopMax(ctx context.Context, timeout time.Duration, keys ...string) *ZWithKeyCmd {
	return nil
}
