// Package wiring registers the handlers at start-up.
package wiring

import (
	"shapes/product/ddd/domain"
	"shapes/product/ddd/handlers"
)

func Register(d *domain.Dispatcher, f *handlers.Forwarder) {
	d.On("OrderPlaced", f.OrderPlaced)
}
