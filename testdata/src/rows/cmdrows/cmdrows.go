// Package cmdrows covers the rows of Redis clients that take the command as
// a string (redigo, radix): a publish only when the command is PUBLISH,
// SPUBLISH or XADD; SET and the other cache commands are no publish, and
// this package pops no list, so a list push is data, not a queue.
package cmdrows

import (
	"context"
	"database/sql"

	oldredigo "github.com/garyburd/redigo/redis"
	"github.com/gomodule/redigo/redis"
	radix3 "github.com/mediocregopher/radix/v3"
	radix4 "github.com/mediocregopher/radix/v4"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

func save() { db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1") }

func posDo(c redis.Conn) {
	save()
	c.Do("PUBLISH", "orders", "{}") // want "OBX001"
}

func posSendLower(c redis.Conn) {
	save()
	c.Send("publish", "orders", "{}") // want "OBX001"
	c.Flush()
}

func posDoContext(c redis.ConnWithContext) {
	save()
	c.DoContext(ctx, "XADD", "orders", "*", "payload", "{}") // want "OBX001"
}

func posDoContextFunc(c redis.Conn) {
	save()
	redis.DoContext(c, ctx, "SPUBLISH", "orders", "{}") // want "OBX001"
}

const publishCmd = "PUBLISH"

func posOld(p *oldredigo.Pool) {
	c := p.Get()
	defer c.Close()
	save()
	c.Do(publishCmd, "orders", "{}")  // want "OBX001"
	c.Send("PUBLISH", "orders", "{}") // want "OBX001"
}

func posRadix3(p *radix3.Pool) {
	save()
	p.Do(radix3.Cmd(nil, "PUBLISH", "orders", "{}"))                  // want "OBX001"
	p.Do(radix3.FlatCmd(nil, "XADD", "orders", "*", "payload", "{}")) // want "OBX001"
}

func posRadix4(c radix4.Client) {
	save()
	c.Do(ctx, radix4.Cmd(nil, "PUBLISH", "orders", "{}"))     // want "OBX001"
	c.Do(ctx, radix4.FlatCmd(nil, "PUBLISH", "orders", "{}")) // want "OBX001"
}

func negPublishAlone(c redis.ConnWithContext, o oldredigo.Conn, p *radix3.Pool, r radix4.Client) {
	c.Do("PUBLISH", "orders", "{}")
	c.Send("PUBLISH", "orders", "{}")
	c.DoContext(ctx, "PUBLISH", "orders", "{}")
	redis.DoContext(c, ctx, "PUBLISH", "orders", "{}")
	o.Do("PUBLISH", "orders", "{}")
	o.Send("PUBLISH", "orders", "{}")
	p.Do(radix3.Cmd(nil, "PUBLISH", "orders", "{}"))
	p.Do(radix3.FlatCmd(nil, "PUBLISH", "orders", "{}"))
	r.Do(ctx, radix4.Cmd(nil, "PUBLISH", "orders", "{}"))
	r.Do(ctx, radix4.FlatCmd(nil, "PUBLISH", "orders", "{}"))
}

// a cache after the write: SET, HSET, DEL, EXPIRE are no publish
func negCache(c redis.ConnWithContext, p *radix3.Pool, r radix4.Client) {
	save()
	c.Do("SET", "order:1", "{}")
	c.Send("HSET", "order:1", "status", "paid")
	c.DoContext(ctx, "DEL", "order:1")
	redis.DoContext(c, ctx, "EXPIRE", "order:1", 60)
	p.Do(radix3.Cmd(nil, "SET", "order:1", "{}"))
	p.Do(radix3.FlatCmd(nil, "HSET", "order:1", "status", "paid"))
	r.Do(ctx, radix4.Cmd(nil, "SET", "order:1", "{}"))
	r.Do(ctx, radix4.FlatCmd(nil, "SET", "order:1", "{}"))
}

// a list nobody in this package pops: a capped log kept as data
func negListNoPop(c redis.Conn, p *radix3.Pool) {
	save()
	c.Do("LPUSH", "recent", "{}")
	p.Do(radix3.Cmd(nil, "RPUSH", "recent", "{}"))
}

// the command is not known until run time: not counted
func negDynamic(c redis.Conn, cmd string) {
	save()
	c.Do(cmd, "orders", "{}")
}
