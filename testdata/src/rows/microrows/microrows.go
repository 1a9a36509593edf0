// Package microrows covers go-micro's rows: a stream's or a broker's
// Publish, events.Publish on the default stream, and its store's Write and
// Delete as a key-value store of record.
package microrows

import (
	"context"
	"database/sql"

	"go-micro.dev/v4/broker"
	"go-micro.dev/v4/events"
	"go-micro.dev/v4/store"
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

// An event consumer keeps its state in the go-micro store, then publishes
// the next step (opencloud's postprocessing service).
func posStoreWrite(st store.Store) {
	st.Write(&store.Record{Key: "pp:1", Value: []byte("{}")})
	events.Publish("postprocessing.step", map[string]string{"id": "1"}) // want "OBX001.*key-value store"
}

func posStoreDelete(st store.Store) {
	st.Delete("pp:1")
	events.Publish("postprocessing.finished", map[string]string{"id": "1"}) // want "OBX001"
}

func negStore(st store.Store) {
	st.Read("pp:1")
	st.Write(&store.Record{Key: "pp:1", Value: []byte("{}")})
	st.Delete("pp:1")
}
