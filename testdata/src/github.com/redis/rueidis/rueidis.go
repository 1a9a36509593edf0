// Package rueidis stubs github.com/redis/rueidis: commands are built with
// B() and run by Do or DoMulti, declared on CommandClient as in the real
// package.
package rueidis

import (
	"context"

	"github.com/redis/rueidis/internal/cmds"
)

type (
	Completed = cmds.Completed
	Builder   = cmds.Builder
)

type RedisResult struct{}

func (r RedisResult) Error() error { return nil }

type ClientOption struct{ InitAddress []string }

type CommandClient interface {
	B() Builder
	Do(ctx context.Context, cmd Completed) (resp RedisResult)
	DoMulti(ctx context.Context, multi ...Completed) (resp []RedisResult)
}

type CoreClient interface {
	CommandClient
	Close()
}

type Client interface {
	CoreClient
}

func NewClient(option ClientOption) (Client, error) { return nil, nil }
