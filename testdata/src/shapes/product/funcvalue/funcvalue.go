// Package funcvalue has the shape of an ORM's generated builders (ent):
// Save runs the insert through a hooks helper that is given the save as a
// method value and calls it. A service that saves, then publishes, is a
// dual write; a helper that only stores the function for later is not a
// write at the call.
package funcvalue

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

type CategoryCreate struct{ db *sql.DB }

func (c *CategoryCreate) sqlSave(ctx context.Context) error {
	_, err := c.db.ExecContext(ctx, "INSERT INTO categories (name) VALUES ($1)", "news")
	return err
}

// Save runs sqlSave through the hooks.
func (c *CategoryCreate) Save(ctx context.Context) error { return withHooks(ctx, c.sqlSave) }

func withHooks(ctx context.Context, exec func(context.Context) error) error {
	return exec(ctx)
}

type later struct{ fns []func(context.Context) error }

// defer_ keeps the function for later: nothing runs at the call.
func (l *later) defer_(fn func(context.Context) error) { l.fns = append(l.fns, fn) }

func CreateCategory(ctx context.Context, c *CategoryCreate, nc *nats.Conn) error {
	if err := c.Save(ctx); err != nil {
		return err
	}
	return nc.Publish("categories.created", []byte("news")) // want "OBX001"
}

func QueueCategory(ctx context.Context, c *CategoryCreate, l *later, nc *nats.Conn) error {
	l.defer_(c.sqlSave)
	return nc.Publish("categories.queued", []byte("news"))
}
