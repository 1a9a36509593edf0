// Package memberloop has a chat service's shape: a message is routed to
// each member of a conversation; an agent gets it over the broker, an
// external channel through its gateway, whose reply may update the
// channel's host. One iteration runs one branch: the write and the
// publish are for different members.
package memberloop

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

type Member struct {
	ID   string
	Kind string
}

type Router struct {
	db *sql.DB
	nc *nats.Conn
}

// Route: no finding.
func (r *Router) Route(ctx context.Context, members []Member, text string) error {
	for _, m := range members {
		switch m.Kind {
		case "agent":
			if err := r.nc.Publish("chat.agent."+m.ID, []byte(text)); err != nil {
				return err
			}
		default:
			if _, err := r.db.ExecContext(ctx, "UPDATE channels SET host = $1 WHERE id = $2", "gw-1", m.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// Deliver stores each message, then announces it: one iteration runs both.
func (r *Router) Deliver(ctx context.Context, members []Member, text string) error {
	for _, m := range members {
		if _, err := r.db.ExecContext(ctx, "INSERT INTO deliveries (member, text) VALUES ($1, $2)", m.ID, text); err != nil {
			return err
		}
		if err := r.nc.Publish("chat.delivered."+m.ID, []byte(text)); err != nil { // want "OBX001"
			return err
		}
	}
	return nil
}
