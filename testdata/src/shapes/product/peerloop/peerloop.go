// Package peerloop is a peer server's handler loop (btcd's peerHandler, as
// in teranode): one goroutine loops forever over a select, and each case
// handles one kind of message on a path of its own. A ban written in one
// case and a relay published in another are never one message's work:
// only the loop's back edge joins them. A case that writes and then
// publishes is a dual write.
package peerloop

import (
	"database/sql"

	"github.com/nats-io/nats.go"
)

type server struct {
	db                   *sql.DB
	nc                   *nats.Conn
	bans, relays, blocks chan string
	quit                 chan struct{}
}

func (s *server) ban(addr string)  { s.db.Exec("INSERT INTO bans (addr) VALUES ($1)", addr) }
func (s *server) relay(inv string) { s.nc.Publish("inv", []byte(inv)) }

func (s *server) peerHandler() {
	for {
		select {
		case addr := <-s.bans:
			s.ban(addr)
		case inv := <-s.relays:
			s.relay(inv)
		case b := <-s.blocks:
			s.db.Exec("INSERT INTO blocks (hash) VALUES ($1)", b)
			s.nc.Publish("block", []byte(b)) // want "OBX001"
		case <-s.quit:
			return
		}
	}
}
