// Package gfredisrows covers GoFrame's gredis rows: Publish, Do with a
// constant PUBLISH (SET is cache work), and list pushes in a package that
// also pops the list (a work queue).
package gfredisrows

import (
	"context"
	"database/sql"

	"github.com/gogf/gf/v2/database/gredis"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

func save() { db.ExecContext(ctx, "UPDATE sys_config SET value = $1 WHERE name = $2") }

func posPublish(r *gredis.Redis) {
	save()
	r.Publish(ctx, "cluster.sync.sysConfig", "{}") // want "OBX001"
}

func posDo(r *gredis.Redis, op gredis.AdapterOperation, c gredis.Conn) {
	save()
	r.Do(ctx, "PUBLISH", "cluster.sync", "{}")  // want "OBX001"
	op.Do(ctx, "PUBLISH", "cluster.sync", "{}") // want "OBX001"
	c.Do(ctx, "XADD", "events", "*", "k", "v")  // want "OBX001"
}

func negDo(r *gredis.Redis, op gredis.AdapterOperation, c gredis.Conn) {
	save()
	r.Do(ctx, "SET", "config", "{}")
	op.Do(ctx, "SET", "config", "{}")
	c.Do(ctx, "SET", "config", "{}")
}

func posPush(r *gredis.Redis) {
	save()
	r.LPush(ctx, "jobs", "1")  // want "OBX001"
	r.RPush(ctx, "jobs", "1")  // want "OBX001"
	r.LPushX(ctx, "jobs", "1") // want "OBX001"
	r.RPushX(ctx, "jobs", "1") // want "OBX001"
}

func negPublishAlone(r *gredis.Redis) {
	r.Publish(ctx, "cluster.sync.sysConfig", "{}")
	r.LPush(ctx, "jobs", "1")
	r.RPush(ctx, "jobs", "1")
	r.LPushX(ctx, "jobs", "1")
	r.RPushX(ctx, "jobs", "1")
}

// the queue's consumer: its pops make the pushes above publishes
func negPop(r *gredis.Redis) {
	r.LPop(ctx, "jobs")
	r.RPop(ctx, "jobs")
	r.BLPop(ctx, 1, "jobs")
	r.BRPop(ctx, 1, "jobs")
	r.RPopLPush(ctx, "jobs", "done")
	r.BRPopLPush(ctx, "jobs", "done", 1)
}
