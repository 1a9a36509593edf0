package natscore

import (
	"database/sql"

	"github.com/nats-io/nats.go"
)

type handler struct{ db *sql.DB }

// handle is passed by name; the write is one call further, in save.
func (h *handler) handle(m *nats.Msg) {
	h.save(string(m.Data))
}

func (h *handler) save(id string) {
	_, _ = h.db.Exec("INSERT INTO notifications (id) VALUES (?)", id)
}

func (h *handler) handleUpsert(m *nats.Msg) {
	_, _ = h.db.Exec("INSERT INTO views (id, body) VALUES (?, ?) ON DUPLICATE KEY UPDATE body = VALUES(body)", m.Subject, m.Data)
}

func subscribe(nc *nats.Conn, db *sql.DB) {
	h := &handler{db: db}
	_, _ = nc.Subscribe("orders", func(m *nats.Msg) { // want `consumer handler \(closure\) writes to the database`
		_, _ = db.Exec("INSERT INTO audit (subject) VALUES (?)", m.Subject)
	})
	_, _ = nc.QueueSubscribe("orders", "workers", h.handle) // want `consumer handler \(natscore.handler.handle\) writes to the database`
	_, _ = nc.Subscribe("views", h.handleUpsert)
	_, _ = nc.Subscribe("pings", func(m *nats.Msg) { _ = m.Ack() })

	js, _ := nc.JetStream()
	_, _ = js.Subscribe("orders", func(m *nats.Msg) {
		tx, _ := db.Begin()
		_, _ = tx.Exec("INSERT INTO inbox (consumer, message_id) VALUES ('audit', ?) ON DUPLICATE KEY UPDATE message_id = message_id", m.Header.Get("Nats-Msg-Id"))
		_, _ = tx.Exec("INSERT INTO audit (subject) VALUES (?)", m.Subject)
		_ = tx.Commit()
	})
	onMsg := func(m *nats.Msg) {
		_, _ = db.Exec("DELETE FROM carts WHERE id = ?", string(m.Data))
	}
	_, _ = js.QueueSubscribe("carts", "q", onMsg)
	_, _ = js.Subscribe("stock", func(m *nats.Msg) { // want `consumer handler \(closure\) writes to the database`
		_, _ = db.Exec("UPDATE stock SET qty = qty - 1 WHERE sku = ?", string(m.Data))
	})
}

// pull fetches from a pull subscription and writes without the inbox.
func pull(sub *nats.Subscription, db *sql.DB) {
	msgs, _ := sub.Fetch(10) // want `writes to the database without the inbox`
	for _, m := range msgs {
		_, _ = db.Exec("INSERT INTO audit (subject) VALUES (?)", m.Subject)
	}
}
