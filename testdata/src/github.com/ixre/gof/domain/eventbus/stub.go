// Package eventbus stubs github.com/ixre/gof/domain/eventbus: listeners
// keyed by the event's type name, run by Dispatch (in goroutines for
// those subscribed async).
package eventbus

type EventListener func(data interface{})

type eventBus struct {
	listeners map[string][]EventListener
}

func NewEventBus() *eventBus { return &eventBus{listeners: map[string][]EventListener{}} }

func (e *eventBus) Subscribe(event interface{}, listener EventListener)      {}
func (e *eventBus) SubscribeAsync(event interface{}, listener EventListener) {}
func (e *eventBus) Dispatch(event interface{}) {
	for _, l := range e.listeners[""] {
		go l(event)
	}
}

var defaultEventBus = NewEventBus()

func Subscribe(event interface{}, listener EventListener) { defaultEventBus.Subscribe(event, listener) }
func SubscribeAsync(event interface{}, listener EventListener) {
	defaultEventBus.SubscribeAsync(event, listener)
}
func Dispatch(event interface{}) { defaultEventBus.Dispatch(event) }
