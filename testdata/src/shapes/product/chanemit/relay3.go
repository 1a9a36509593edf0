package chanemit

import (
	"database/sql"

	"github.com/nats-io/nats.go"
)

// A peer server's ban (teranode's legacy server): the ban event goes on an
// in-process channel to a listener, which queries the peer handler over a
// second channel, which asks the connection manager over a third, whose
// goroutine ends in a publish. Three hand-offs from the ban: no publish
// of the ban's (at most two are followed).

type banEvent struct{ ip string }
type query struct{ ip string }
type connReq struct{ addr string }

type PeerServer struct {
	db      *sql.DB
	nc      *nats.Conn
	banCh   chan banEvent
	queryCh chan query
	reqCh   chan connReq
}

func (s *PeerServer) HandleBan(ip string) {
	s.banCh <- banEvent{ip: ip}
	s.db.Exec("INSERT INTO bans (ip) VALUES ($1)", ip)
}

func (s *PeerServer) listenForBans() {
	for ev := range s.banCh {
		s.queryCh <- query{ip: ev.ip}
	}
}

func (s *PeerServer) peerHandler() {
	for q := range s.queryCh {
		s.reqCh <- connReq{addr: q.ip}
	}
}

func (s *PeerServer) connHandler() {
	for r := range s.reqCh {
		s.nc.Publish("peer.connected", []byte(r.addr))
	}
}
