// Package order is the order aggregate: its repository (PostgreSQL through
// pgx) and the service that the HTTP handlers call.
package order

import "time"

// Order is a customer's order.
type Order struct {
	ID         string
	CustomerID string
	TotalCents int64
	Status     string
	CreatedAt  time.Time
}
