// Package deadcode has a stub left in a domain: a method that returns
// before the insert written below it (work in progress), so a caller that
// logs and then publishes writes nothing.
package deadcode

import (
	"database/sql"

	"github.com/nats-io/nats.go"
)

type Order struct {
	db *sql.DB
	nc *nats.Conn
}

// AppendLog returns first: the insert below never runs.
func (o *Order) AppendLog(msg string) error {
	return nil
	_, err := o.db.Exec("INSERT INTO order_log (msg) VALUES ($1)", msg)
	return err
}

// Retire panics first: nothing below runs.
func (o *Order) Retire() error {
	panic("retire: not implemented")
	_, err := o.db.Exec("DELETE FROM orders")
	return err
}

// Cancel logs (a no-op) and announces: no finding.
func (o *Order) Cancel() error {
	if err := o.AppendLog("cancel"); err != nil {
		return err
	}
	return o.nc.Publish("orders.canceled", nil)
}

// Complete updates, then announces.
func (o *Order) Complete() error {
	if _, err := o.db.Exec("UPDATE orders SET done = true"); err != nil {
		return err
	}
	return o.nc.Publish("orders.completed", nil) // want "OBX001"
}
