package relaytest

import (
	"io"
	"net"
	"sync"
	"testing"

	"github.com/nats-io/nats.go"
)

// The TCP proxies and the NATS recorder the failover and security tests
// share.

// serveConns accepts on ln until the test ends and runs handle on each
// connection in its own goroutine, closing the connection after; it
// returns ln's address.
func serveConns(t *testing.T, ln net.Listener, handle func(c net.Conn)) string {
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				handle(c)
			}()
		}
	}()
	return ln.Addr().String()
}

// pipe copies a to b and b to a until either direction ends.
func pipe(a, b io.ReadWriter) {
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(b, a); done <- struct{}{} }()
	go func() { _, _ = io.Copy(a, b); done <- struct{}{} }()
	<-done
}

// dialPipe connects c to target and copies both ways.
func dialPipe(c net.Conn, target string) {
	up, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer up.Close()
	pipe(c, up)
}

// natsRecorder keeps what a core NATS subscription received, in order.
type natsRecorder struct {
	mu  sync.Mutex
	got []struct{ agg, body string }
	ids []string
}

// recordNATS subscribes to subject on nc until the test ends.
func recordNATS(t *testing.T, nc *nats.Conn, subject string) *natsRecorder {
	t.Helper()
	r := &natsRecorder{}
	sub, err := nc.Subscribe(subject, func(m *nats.Msg) {
		r.mu.Lock()
		r.got = append(r.got, struct{ agg, body string }{m.Header.Get("aggregate-id"), string(m.Data)})
		r.ids = append(r.ids, m.Header.Get("outbox-id"))
		r.mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *natsRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

// received is a copy of the messages and their outbox ids so far.
func (r *natsRecorder) received() ([]struct{ agg, body string }, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]struct{ agg, body string }(nil), r.got...), append([]string(nil), r.ids...)
}

// tally counts, per row, how often its outbox id arrived: the rows never
// received and the extra copies.
func tally(rows []row, ids []string) (lost, dups int) {
	seen := map[string]int{}
	for _, id := range ids {
		seen[id]++
	}
	for _, r := range rows {
		switch n := seen[r.ID]; {
		case n == 0:
			lost++
		case n > 1:
			dups += n - 1
		}
	}
	return lost, dups
}
