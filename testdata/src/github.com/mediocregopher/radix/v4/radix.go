// Package radix stubs github.com/mediocregopher/radix/v4.
package radix

import "context"

type Action interface{}

func Cmd(rcv interface{}, cmd string, args ...string) Action { return nil }

func FlatCmd(rcv interface{}, cmd string, args ...interface{}) Action { return nil }

type Client interface {
	Do(context.Context, Action) error
	Close() error
}
