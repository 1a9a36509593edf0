// Package app saves the aggregate, then dispatches its events: the
// dispatcher runs the handler wiring registered, which publishes. Only the
// CLI sees it (the registration is in another package).
package app

import (
	"context"
	"database/sql"

	"shapes/product/ddd/domain"
)

type Orders struct {
	DB     *sql.DB
	Events *domain.Dispatcher
}

func (o *Orders) Place(ctx context.Context, id string) error {
	if _, err := o.DB.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id); err != nil {
		return err
	}
	return o.Events.Publish(ctx, domain.Event{Name: "OrderPlaced", ID: id})
}
