// Package startup is a service's start-up wiring: migrations at boot and a
// publisher whose constructor starts a background flusher. Neither is a
// request: no finding. The flusher's own loop only publishes.
package startup

import (
	"context"
	"database/sql"
	"time"

	"github.com/nats-io/nats.go"
)

const schema = `CREATE TABLE IF NOT EXISTS events (
	id TEXT PRIMARY KEY,
	room TEXT REFERENCES rooms (id) ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO events (id) VALUES ('seed') ON CONFLICT DO NOTHING;`

// Migrate creates the tables and records the migration, like a home-made migrator.
func Migrate(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "INSERT INTO db_migrations (version) VALUES ($1)", "1")
	return err
}

// Publisher buffers events and flushes them in the background.
type Publisher struct {
	nc  *nats.Conn
	buf chan []byte
}

func NewPublisher(nc *nats.Conn) *Publisher {
	p := &Publisher{nc: nc, buf: make(chan []byte, 64)}
	go p.flush()
	return p
}

func (p *Publisher) flush() {
	for {
		select {
		case b := <-p.buf:
			p.nc.Publish("events", b)
		case <-time.After(time.Second):
		}
	}
}

// Boot is main's wiring.
func Boot(ctx context.Context, db *sql.DB, nc *nats.Conn) (*Publisher, error) {
	if err := Migrate(ctx, db); err != nil {
		return nil, err
	}
	p := NewPublisher(nc)
	go func() {
		for range time.Tick(time.Minute) {
			nc.Publish("heartbeat", nil)
		}
	}()
	return p, nil
}
