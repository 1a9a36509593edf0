package redis

import (
	"context"
	"time"
)

type IntCmd struct{}
type StringCmd struct{}
type StatusCmd struct{}
type StringSliceCmd struct{}

func (*IntCmd) Err() error                        { return nil }
func (*IntCmd) Result() (int64, error)            { return 0, nil }
func (*StringCmd) Err() error                     { return nil }
func (*StringCmd) Result() (string, error)        { return "", nil }
func (*StatusCmd) Err() error                     { return nil }
func (*StatusCmd) Result() (string, error)        { return "", nil }
func (*StringSliceCmd) Err() error                { return nil }
func (*StringSliceCmd) Result() ([]string, error) { return nil, nil }

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
type ListCmdable interface {
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
	ListCmdable
	SortedSetCmdable
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

func (*ZSliceCmd) Err() error   { return nil }
func (*ZWithKeyCmd) Err() error { return nil }

type SortedSetCmdable interface {
	ZAdd(ctx context.Context, key string, members ...Z) *IntCmd
	ZAddNX(ctx context.Context, key string, members ...Z) *IntCmd
	ZAddArgs(ctx context.Context, key string, args ZAddArgs) *IntCmd
	ZPopMin(ctx context.Context, key string, count ...int64) *ZSliceCmd
	ZPopMax(ctx context.Context, key string, count ...int64) *ZSliceCmd
	BZPopMin(ctx context.Context, timeout time.Duration, keys ...string) *ZWithKeyCmd
	BZPopMax(ctx context.Context, timeout time.Duration, keys ...string) *ZWithKeyCmd
}

func (c cmdable) ZAdd(ctx context.Context, key string, members ...Z) *IntCmd   { return nil }
func (c cmdable) ZAddNX(ctx context.Context, key string, members ...Z) *IntCmd { return nil }
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
