// Package microrows covers go-micro's publish rows: a stream's or a
// broker's Publish, and events.Publish on the default stream.
package microrows

import (
	"context"
	"database/sql"

	"go-micro.dev/v4/broker"
	"go-micro.dev/v4/events"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

func save() { db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1") }

func posStream(s events.Stream) {
	save()
	s.Publish("orders", map[string]string{"id": "1"}) // want "OBX001"
}

func posDefault() {
	save()
	events.Publish("orders", map[string]string{"id": "1"}) // want "OBX001"
}

func posBroker(b broker.Broker) {
	save()
	b.Publish("orders", &broker.Message{Body: []byte("{}")}) // want "OBX001"
}

func negAlone(s events.Stream, b broker.Broker) {
	s.Publish("orders", nil)
	events.Publish("orders", nil)
	b.Publish("orders", &broker.Message{Body: []byte("{}")})
}
