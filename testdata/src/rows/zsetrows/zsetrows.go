// Package zsetrows covers the Redis sorted-set queue rows: this package
// pops its sorted set (a delay queue drained by due time), so ZADD is a
// publish, through go-redis v8 and v9 and as a string command.
package zsetrows

import (
	"context"
	"database/sql"
	"time"

	redis8 "github.com/go-redis/redis/v8"
	"github.com/gomodule/redigo/redis"
	redis9 "github.com/redis/go-redis/v9"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

func save() { db.ExecContext(ctx, "UPDATE bundles SET state = 'queued' WHERE id = $1") }

func posV9(c *redis9.Client, s redis9.SortedSetCmdable) {
	save()
	c.ZAdd(ctx, "simqueue", redis9.Z{Score: 1, Member: "b1"})                         // want "OBX001"
	c.ZAddNX(ctx, "simqueue", redis9.Z{Score: 1, Member: "b1"})                       // want "OBX001"
	c.ZAddArgs(ctx, "simqueue", redis9.ZAddArgs{Members: []redis9.Z{{Member: "b1"}}}) // want "OBX001"
	s.ZAdd(ctx, "simqueue", redis9.Z{Score: 1, Member: "b1"})                         // want "OBX001"
	s.ZAddNX(ctx, "simqueue", redis9.Z{Score: 1, Member: "b1"})                       // want "OBX001"
	s.ZAddArgs(ctx, "simqueue", redis9.ZAddArgs{Members: []redis9.Z{{Member: "b1"}}}) // want "OBX001"
}

func posV8(c *redis8.Client, s redis8.Cmdable) {
	save()
	c.ZAdd(ctx, "simqueue", &redis8.Z{Score: 1, Member: "b1"})                        // want "OBX001"
	c.ZAddNX(ctx, "simqueue", &redis8.Z{Score: 1, Member: "b1"})                      // want "OBX001"
	c.ZAddArgs(ctx, "simqueue", redis8.ZAddArgs{Members: []redis8.Z{{Member: "b1"}}}) // want "OBX001"
	s.ZAdd(ctx, "simqueue", &redis8.Z{Score: 1, Member: "b1"})                        // want "OBX001"
	s.ZAddNX(ctx, "simqueue", &redis8.Z{Score: 1, Member: "b1"})                      // want "OBX001"
	s.ZAddArgs(ctx, "simqueue", redis8.ZAddArgs{Members: []redis8.Z{{Member: "b1"}}}) // want "OBX001"
}

func posCommand(conn redis.Conn) {
	save()
	conn.Do("ZADD", "simqueue", 1, "b1") // want "OBX001"
}

func negAlone(c9 *redis9.Client, s9 redis9.SortedSetCmdable, c8 *redis8.Client, s8 redis8.Cmdable, conn redis.Conn) {
	c9.ZAdd(ctx, "simqueue", redis9.Z{Score: 1, Member: "b1"})
	c9.ZAddNX(ctx, "simqueue", redis9.Z{Score: 1, Member: "b1"})
	c9.ZAddArgs(ctx, "simqueue", redis9.ZAddArgs{})
	s9.ZAdd(ctx, "simqueue", redis9.Z{Score: 1, Member: "b1"})
	s9.ZAddNX(ctx, "simqueue", redis9.Z{Score: 1, Member: "b1"})
	s9.ZAddArgs(ctx, "simqueue", redis9.ZAddArgs{})
	c8.ZAdd(ctx, "simqueue", &redis8.Z{Score: 1, Member: "b1"})
	c8.ZAddNX(ctx, "simqueue", &redis8.Z{Score: 1, Member: "b1"})
	c8.ZAddArgs(ctx, "simqueue", redis8.ZAddArgs{})
	s8.ZAdd(ctx, "simqueue", &redis8.Z{Score: 1, Member: "b1"})
	s8.ZAddNX(ctx, "simqueue", &redis8.Z{Score: 1, Member: "b1"})
	s8.ZAddArgs(ctx, "simqueue", redis8.ZAddArgs{})
	conn.Do("ZADD", "simqueue", 1, "b1")
}

// the queue's worker: it pops the due items
func negPop(c9 *redis9.Client, s9 redis9.SortedSetCmdable, c8 *redis8.Client, s8 redis8.Cmdable, conn redis.Conn) {
	c9.ZPopMin(ctx, "simqueue")
	c9.ZPopMax(ctx, "simqueue")
	c9.BZPopMin(ctx, time.Second, "simqueue")
	c9.BZPopMax(ctx, time.Second, "simqueue")
	s9.ZPopMin(ctx, "simqueue")
	s9.ZPopMax(ctx, "simqueue")
	s9.BZPopMin(ctx, time.Second, "simqueue")
	s9.BZPopMax(ctx, time.Second, "simqueue")
	c8.ZPopMin(ctx, "simqueue")
	c8.ZPopMax(ctx, "simqueue")
	c8.BZPopMin(ctx, time.Second, "simqueue")
	c8.BZPopMax(ctx, time.Second, "simqueue")
	s8.ZPopMin(ctx, "simqueue")
	s8.ZPopMax(ctx, "simqueue")
	s8.BZPopMin(ctx, time.Second, "simqueue")
	s8.BZPopMax(ctx, time.Second, "simqueue")
	conn.Do("BZPOPMIN", "simqueue", 1)
}
