// Package api has the handlers: a store-of-record update followed by a
// push onto a work queue is a dual write (through the concrete store: vet
// and CLI; through the Store interface: CLI); a push onto a capped
// activity list is not a publish.
package api

import (
	"context"
	"database/sql"

	"shapes/product/redisqueue/activity"
	"shapes/product/redisqueue/cache"
)

type API struct {
	DB       *sql.DB
	Redis    *cache.RedisStore
	Cache    cache.Store
	Activity *activity.Log
}

type event struct {
	Kind string
	ID   int64
}

func (a *API) UpdateWorkflow(ctx context.Context, id int64, name string) error {
	if _, err := a.DB.ExecContext(ctx, "UPDATE workflow SET name = $1 WHERE id = $2", name, id); err != nil {
		return err
	}
	return a.Redis.Enqueue("events", event{Kind: "workflow.updated", ID: id}) // want "OBX001"
}

func (a *API) DeleteWorkflow(ctx context.Context, id int64) error {
	if _, err := a.DB.ExecContext(ctx, "DELETE FROM workflow WHERE id = $1", id); err != nil {
		return err
	}
	return a.Cache.Enqueue("events", event{Kind: "workflow.deleted", ID: id})
}

func (a *API) Rename(ctx context.Context, id int64, user, name string) error {
	if _, err := a.DB.ExecContext(ctx, "UPDATE workflow SET name = $1 WHERE id = $2", name, id); err != nil {
		return err
	}
	return a.Activity.Record(ctx, user, "rename")
}
