// Package producers: a producer wrapper typed by the team's own interface
// over the JetStream publisher, and a writer helper that runs a closure in
// a transaction and commits before returning.
package producers

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

// JetStreamPublisher is the part of nats.JetStreamContext the producer needs.
type JetStreamPublisher interface {
	PublishMsg(m *nats.Msg, opts ...nats.PubOpt) (*nats.PubAck, error)
}

type KeyChange struct {
	JetStream JetStreamPublisher
	DB        *sql.DB
}

func (p *KeyChange) Produce(ctx context.Context, user string) error {
	if _, err := p.DB.ExecContext(ctx, "INSERT INTO key_changes (user_id) VALUES ($1)", user); err != nil {
		return err
	}
	_, err := p.JetStream.PublishMsg(&nats.Msg{Subject: "keys", Data: []byte(user)}) // want `OBX001 publish \(nats.JetStream\).PublishMsg`
	return err
}

// Writer serialises writes: Do runs f in a transaction and commits it.
type Writer struct{ db *sql.DB }

func (w *Writer) Do(ctx context.Context, f func(txn *sql.Tx) error) error {
	txn, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(txn); err != nil {
		txn.Rollback()
		return err
	}
	return txn.Commit()
}

type Rooms struct {
	w  *Writer
	nc *nats.Conn
}

// Purge commits inside the helper, then publishes: OBX002, naming the delete.
func (r *Rooms) Purge(ctx context.Context, room string) error {
	err := r.w.Do(ctx, func(txn *sql.Tx) error {
		_, err := txn.ExecContext(ctx, "DELETE FROM rooms WHERE id = $1", room)
		return err
	})
	if err != nil {
		return err
	}
	return r.nc.Publish("room.purged", []byte(room)) // want `OBX002 .*\(\*sql.Tx\).ExecContext`
}
