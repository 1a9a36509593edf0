// Package recursion: mutually recursive functions. The write is reached
// through the cycle; vet's facts and the CLI's resolver must both settle
// on it (a summary taken while the cycle was open is only provisional).
package recursion

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

type Tree struct {
	db *sql.DB
	nc *nats.Conn
}

// saveNode and saveChildren call each other.
func (t *Tree) saveNode(ctx context.Context, id string, depth int) error {
	if depth > 0 {
		return t.saveChildren(ctx, id, depth-1)
	}
	_, err := t.db.ExecContext(ctx, "INSERT INTO nodes (id) VALUES ($1)", id)
	return err
}

func (t *Tree) saveChildren(ctx context.Context, id string, depth int) error {
	for _, c := range []string{id + "/a", id + "/b"} {
		if err := t.saveNode(ctx, c, depth); err != nil {
			return err
		}
	}
	return nil
}

func (t *Tree) Save(ctx context.Context, id string) error {
	if err := t.saveChildren(ctx, id, 3); err != nil {
		return err
	}
	return t.nc.Publish("tree.saved", []byte(id)) // want `OBX001 .*\(via \(\*recursion.Tree\).saveChildren -> \(\*recursion.Tree\).saveNode\)`
}
