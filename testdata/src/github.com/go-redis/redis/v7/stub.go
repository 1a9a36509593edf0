// Package redis stubs go-redis v7 (no context argument): Publish and XAdd
// on the Cmdable interface and the unexported cmdable the clients embed.
package redis

type IntCmd struct{}
type StringCmd struct{}
type Cmder interface{ Name() string }
type XAddArgs struct {
	Stream string
	ID     string
	Values map[string]interface{}
}

type Cmdable interface {
	Publish(channel string, message interface{}) *IntCmd
	XAdd(a *XAddArgs) *StringCmd
}

type cmdable func(cmd Cmder) error

func (c cmdable) Publish(channel string, message interface{}) *IntCmd { return nil }
func (c cmdable) XAdd(a *XAddArgs) *StringCmd                         { return nil }

type Client struct{ cmdable }
