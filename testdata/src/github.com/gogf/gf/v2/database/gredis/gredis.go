// Package gredis stubs GoFrame's github.com/gogf/gf/v2/database/gredis:
// Redis embeds its command groups as interfaces, so r.Publish is
// IGroupPubSub's method, as in the real package.
package gredis

import "context"

type Var struct{}

type Vars []*Var

type IGroupPubSub interface {
	Publish(ctx context.Context, channel string, message interface{}) (int64, error)
}

type IGroupList interface {
	LPush(ctx context.Context, key string, values ...interface{}) (int64, error)
	LPushX(ctx context.Context, key string, element interface{}, elements ...interface{}) (int64, error)
	RPush(ctx context.Context, key string, values ...interface{}) (int64, error)
	RPushX(ctx context.Context, key string, value interface{}) (int64, error)
	LPop(ctx context.Context, key string, count ...int) (*Var, error)
	RPop(ctx context.Context, key string, count ...int) (*Var, error)
	BLPop(ctx context.Context, timeout int64, keys ...string) (Vars, error)
	BRPop(ctx context.Context, timeout int64, keys ...string) (Vars, error)
	RPopLPush(ctx context.Context, source, destination string) (*Var, error)
	BRPopLPush(ctx context.Context, source, destination string, timeout int64) (*Var, error)
}

type AdapterOperation interface {
	Do(ctx context.Context, command string, args ...interface{}) (*Var, error)
}

type Conn interface {
	Do(ctx context.Context, command string, args ...interface{}) (result *Var, err error)
	Close(ctx context.Context) (err error)
}

type (
	localGroupPubSub = IGroupPubSub
	localGroupList   = IGroupList
)

type localGroup struct {
	localGroupPubSub
	localGroupList
}

type Redis struct {
	localGroup
}

func (r *Redis) Do(ctx context.Context, command string, args ...interface{}) (*Var, error) {
	return nil, nil
}
