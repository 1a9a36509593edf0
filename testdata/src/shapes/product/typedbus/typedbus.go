// Package typedbus has an e-commerce domain's shape (CLI): aggregates
// raise events on a library event bus keyed by the event's type, and the
// program's wiring subscribes listeners at start-up, one of which pushes
// to NATS in the goroutine the bus starts.
package typedbus

import (
	"database/sql"
	"log"

	"github.com/ixre/gof/domain/eventbus"
	"github.com/nats-io/nats.go"

	"shapes/product/typedbus/events"
)

type Handler struct{ nc *nats.Conn }

// OnAccountLog pushes the account log to NATS.
func (h *Handler) OnAccountLog(data interface{}) {
	_ = h.nc.Publish("account.log", []byte("log"))
}

// OnLevelChanged only logs.
func (h *Handler) OnLevelChanged(data interface{}) {
	log.Print(data)
}

// Init wires the listeners: registering is not running (no finding).
func Init(h *Handler) {
	eventbus.SubscribeAsync(events.AccountLogPushEvent{}, h.OnAccountLog)
	eventbus.Subscribe(events.LevelChangedEvent{}, h.OnLevelChanged)
}

type Wallet struct {
	db      *sql.DB
	balance int
}

// saveLog inserts the wallet log, then raises its event: the bus pushes
// it in a goroutine (CLI).
func (w *Wallet) saveLog(amount int) error {
	res, err := w.db.Exec("INSERT INTO wallet_log (amount) VALUES ($1)", amount)
	if err != nil {
		return err
	}
	id, _ := res.LastInsertId()
	eventbus.Dispatch(&events.AccountLogPushEvent{LogID: id})
	return nil
}

// Save stores the wallet's balance.
func (w *Wallet) Save() error {
	_, err := w.db.Exec("UPDATE wallet SET balance = $1", w.balance)
	return err
}

// Adjust records and announces the log, then stores the balance the
// event announced: the aggregate's later write is the partner (CLI).
func (w *Wallet) Adjust(amount int) error {
	w.balance += amount
	if err := w.saveLog(amount); err != nil {
		return err
	}
	return w.Save()
}

// LevelUp raises an event whose only listener logs: no finding.
func (w *Wallet) LevelUp() error {
	if err := w.Save(); err != nil {
		return err
	}
	eventbus.Dispatch(&events.LevelChangedEvent{MemberID: 1})
	return nil
}
