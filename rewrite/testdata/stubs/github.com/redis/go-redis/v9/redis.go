// Package redis is a stub of github.com/redis/go-redis/v9 for rewrite tests.
package redis

import "context"

type Cmder interface{ Err() error }

type IntCmd struct{}

func (c *IntCmd) Err() error             { return nil }
func (c *IntCmd) Result() (int64, error) { return 0, nil }

type StringCmd struct{}

func (c *StringCmd) Err() error              { return nil }
func (c *StringCmd) Result() (string, error) { return "", nil }

type XAddArgs struct {
	Stream string
	MaxLen int64
	Approx bool
	ID     string
	Values interface{}
}

type cmdable func(ctx context.Context, cmd Cmder) error

func (c cmdable) Publish(ctx context.Context, channel string, message interface{}) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) XAdd(ctx context.Context, a *XAddArgs) *StringCmd { return &StringCmd{} }

type Client struct {
	cmdable
}
