// Package cmdlistrows: a work queue on a Redis list through a client that
// takes commands as strings. The package pops the list (BRPOP), so a push
// after a write is a publish.
package cmdlistrows

import (
	"context"
	"database/sql"

	"github.com/gomodule/redigo/redis"
	radix3 "github.com/mediocregopher/radix/v3"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

func save() { db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1") }

func posPush(c redis.Conn) {
	save()
	c.Do("LPUSH", "jobs", "{}") // want "OBX001"
}

func posPushRadix(p *radix3.Pool) {
	save()
	p.Do(radix3.Cmd(nil, "RPUSH", "jobs", "{}")) // want "OBX001"
}

func negPush(c redis.Conn) {
	c.Do("LPUSH", "jobs", "{}")
}

// the worker's side: taking a job off the list
func negWork(c redis.Conn) {
	save()
	c.Do("BRPOP", "jobs", 0)
}
