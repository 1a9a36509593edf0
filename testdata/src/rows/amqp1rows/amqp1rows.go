// Package amqp1rows covers the AMQP 1.0 row: go-amqp's Sender.Send.
package amqp1rows

import (
	"context"
	"database/sql"

	amqp "github.com/Azure/go-amqp"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

func save() { db.ExecContext(ctx, "UPDATE jobs SET state = 'queued' WHERE id = $1") }

func posSend(s *amqp.Sender) {
	save()
	s.Send(ctx, amqp.NewMessage([]byte("{}")), nil) // want "OBX001"
}

// The team's own sender interface that go-amqp's Sender satisfies.
type Sender interface {
	Send(ctx context.Context, msg *amqp.Message, opts *amqp.SendOptions) error
}

func posOwnInterface(s Sender) {
	save()
	s.Send(ctx, amqp.NewMessage([]byte("{}")), nil) // want "OBX001"
}

func negSend(s *amqp.Sender) {
	s.Send(ctx, amqp.NewMessage([]byte("{}")), nil)
}
