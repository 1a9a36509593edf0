// Package radix stubs github.com/mediocregopher/radix/v3: a command is an
// Action built from strings, run by a Client's Do.
package radix

type Action interface{}

type CmdAction interface {
	Action
}

func Cmd(rcv interface{}, cmd string, args ...string) CmdAction { return nil }

func FlatCmd(rcv interface{}, cmd, key string, args ...interface{}) CmdAction { return nil }

type Client interface {
	Do(Action) error
	Close() error
}

type Pool struct{}

func (p *Pool) Do(a Action) error { return nil }
