// Package natsreqrows covers NATS request-reply: a request is a message on
// a subject, so after a write it is a dual write (RPC libraries such as
// stormrpc reach RequestMsgWithContext from their own Do).
package natsreqrows

import (
	"context"
	"database/sql"
	"time"

	"github.com/nats-io/nats.go"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

func save() { db.ExecContext(ctx, "UPDATE pools SET status = 'PENDING_UPDATE' WHERE id = $1") }

func posRequest(nc *nats.Conn) {
	save()
	nc.Request("andromeda.sync", nil, time.Second) // want "OBX001"
}

func negRequest(nc *nats.Conn) { nc.Request("andromeda.sync", nil, time.Second) }

func posRequestWithContext(nc *nats.Conn) {
	save()
	nc.RequestWithContext(ctx, "andromeda.sync", nil) // want "OBX001"
}

func negRequestWithContext(nc *nats.Conn) { nc.RequestWithContext(ctx, "andromeda.sync", nil) }

func posRequestMsg(nc *nats.Conn) {
	save()
	nc.RequestMsg(&nats.Msg{Subject: "andromeda.sync"}, time.Second) // want "OBX001"
}

func negRequestMsg(nc *nats.Conn) { nc.RequestMsg(&nats.Msg{Subject: "andromeda.sync"}, time.Second) }

func posRequestMsgWithContext(nc *nats.Conn) {
	save()
	nc.RequestMsgWithContext(ctx, &nats.Msg{Subject: "andromeda.sync"}) // want "OBX001"
}

func negRequestMsgWithContext(nc *nats.Conn) {
	nc.RequestMsgWithContext(ctx, &nats.Msg{Subject: "andromeda.sync"})
}

func posEncodedRequest(c *nats.EncodedConn) {
	save()
	var reply string
	c.Request("andromeda.sync", "x", &reply, time.Second) // want "OBX001"
}

func negEncodedRequest(c *nats.EncodedConn) {
	var reply string
	c.Request("andromeda.sync", "x", &reply, time.Second)
}

func posEncodedRequestWithContext(c *nats.EncodedConn) {
	save()
	var reply string
	c.RequestWithContext(ctx, "andromeda.sync", "x", &reply) // want "OBX001"
}

func negEncodedRequestWithContext(c *nats.EncodedConn) {
	var reply string
	c.RequestWithContext(ctx, "andromeda.sync", "x", &reply)
}

// rpcClient stands for an RPC library over NATS: its Do sends the request.
type rpcClient struct{ nc *nats.Conn }

func (c *rpcClient) Do(ctx context.Context, subject string) error {
	_, err := c.nc.RequestMsgWithContext(ctx, &nats.Msg{Subject: subject})
	return err
}

// pendingSync mirrors a controller helper: a nil client means no sync.
func pendingSync(c *rpcClient) error {
	if c == nil {
		return nil
	}
	return c.Do(ctx, "andromeda.sync")
}

func posThroughRPC(c *rpcClient) error {
	if _, err := db.ExecContext(ctx, "DELETE FROM member WHERE id = $1", 1); err != nil {
		return err
	}
	return pendingSync(c) // want "OBX001"
}

func negRPCOnly(c *rpcClient) error { return pendingSync(c) }
