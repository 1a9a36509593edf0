// Package rpcserver is an RPC server over NATS (stormrpc's shape): Handle
// stores handlers, Use stores middlewares, and Run wraps each handler in
// the middlewares (hf = s.mw[i](hf)) before subscribing it. Wrapping is
// not running: the server's start-up wiring, which seeds a table and
// starts Run in a goroutine, publishes nothing, though an agent elsewhere
// in the program registers a handler that publishes.
package rpcserver

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

type Request struct{ Subject string }
type Response struct{ Err error }

type HandlerFunc func(ctx context.Context, r Request) Response
type Middleware func(next HandlerFunc) HandlerFunc

type Server struct {
	nc       *nats.Conn
	handlers map[string]HandlerFunc
	mw       []Middleware
	stop     chan struct{}
}

func (s *Server) Handle(subject string, fn HandlerFunc) { s.handlers[subject] = fn }
func (s *Server) Use(mw ...Middleware)                  { s.mw = append(s.mw, mw...) }

func (s *Server) Run() error {
	s.applyMiddlewares()
	for sub := range s.handlers {
		s.nc.Subscribe(sub, func(m *nats.Msg) {})
	}
	<-s.stop
	return nil
}

func (s *Server) applyMiddlewares() {
	for k, hf := range s.handlers {
		for i := len(s.mw) - 1; i >= 0; i-- {
			hf = s.mw[i](hf)
		}
		s.handlers[k] = hf
	}
}

// Sync is the agent's handler: it asks the server for its datacenters.
func Sync(ctx context.Context, r Request) Response {
	var nc *nats.Conn
	_, err := nc.RequestWithContext(ctx, "datacenters.get", nil)
	return Response{Err: err}
}

// Agent registers its handler and serves.
func Agent(srv *Server) {
	srv.Handle("agent.sync", Sync)
	go srv.Run()
}

// ExecuteServer seeds the datacenters at start-up and serves: no dual write.
func ExecuteServer(db *sql.DB, srv *Server) {
	db.Exec("INSERT INTO datacenter (name) VALUES ($1) ON CONFLICT DO NOTHING", "eu-1")
	go func() {
		_ = srv.Run()
	}()
}
