package relaytest

import (
	"bytes"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// ackHold is a TCP forwarder between one relay and the NATS server that
// holds back everything the server sends once the relay has published a
// message on trigger (a "PUB <subject> " or "HPUB <subject> " line): the
// messages reach the stream, their acks never reach the relay, so the
// relay waits mid-batch, inside its batch transaction.
type ackHold struct {
	mu      sync.Mutex
	held    bool
	release chan struct{}
	trigger []byte
}

func holdAcks(t *testing.T, target, subject string) (addr string, h *ackHold) {
	t.Helper()
	h = &ackHold{release: make(chan struct{}), trigger: []byte("PUB " + subject + " ")}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close(); h.open() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go h.serve(c, target)
		}
	}()
	return ln.Addr().String(), h
}

func (h *ackHold) serve(c net.Conn, target string) {
	defer c.Close()
	up, err := net.Dial("tcp", target)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() { // relay -> server: watch for the trigger
		buf := make([]byte, 64<<10)
		for {
			n, err := c.Read(buf)
			if n > 0 {
				if bytes.Contains(buf[:n], h.trigger) {
					h.mu.Lock()
					h.held = true
					h.mu.Unlock()
				}
				if _, werr := up.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		done <- struct{}{}
	}()
	go func() { // server -> relay: stalls while held
		buf := make([]byte, 64<<10)
		for {
			n, err := up.Read(buf)
			if n > 0 {
				if h.isHeld() {
					<-h.release
				}
				if _, werr := c.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		done <- struct{}{}
	}()
	<-done
}

func (h *ackHold) isHeld() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held
}

// open lets the held bytes through (once).
func (h *ackHold) open() {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.release:
	default:
		close(h.release)
	}
}

// TestFrozenLeaderProcessFailsOver: two relay processes (this test binary
// as the rendered outbox-relay), a leader and a standby, against a
// JetStream stream of the test's own on the shared NATS. The leader reaches
// NATS through a forwarder that holds back the acks of its first batch, so
// it is mid-batch (claimed, published, waiting for acks, its batch
// transaction and leader lock open) when the test sends it SIGSTOP. The
// standby must publish every row within the failover bound: the database
// ends the frozen session (PostgreSQL idle_in_transaction_session_timeout,
// MySQL wait_timeout), which releases the lock. After SIGCONT the old
// leader may publish again what it had claimed: only duplicates; the
// first copy of every message arrives in seq order per aggregate, and the
// stream (Nats-Msg-Id deduplication) holds each row once.
// OUTBOXIFY_FROZEN_LEADER_FAILOVER overrides the leader's --failover (set
// it to 300s to see the test fail: the frozen leader keeps the lock).
func TestFrozenLeaderProcessFailsOver(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		e := newJetStream(t)
		subject := e.prefix + ".orders"
		rows := d.insert(t, sequence(subject, aggregates("fz", 4), 200)...)

		nc, err := nats.Connect(e.url)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		rec := recordNATS(t, nc, subject)
		received := rec.count

		const failover = 6 * time.Second
		leaderFailover := failover.String()
		if v := os.Getenv("OUTBOXIFY_FROZEN_LEADER_FAILOVER"); v != "" {
			leaderFailover = v
		}
		flags := []string{"--batch-size", "50", "--notify", "off", "--publish-timeout", "30s"}
		proxy, hold := holdAcks(t, strings.TrimPrefix(e.url, "nats://"), subject)
		leader := startProcess(t, c, nil, fastFlags(d, append([]string{"--broker-url", "nats://" + proxy, "--failover", leaderFailover}, flags...)...)...)
		eventually(t, 30*time.Second, "the leader published its first batch (acks held)", func() bool {
			return hold.isHeld() && received() > 0
		})
		standby := startProcess(t, c, nil, fastFlags(d, append([]string{"--broker-url", e.url, "--failover", failover.String()}, flags...)...)...)
		time.Sleep(time.Second) // the standby is up and polling; the leader still waits for its acks
		if n := d.count(t, "published_at IS NOT NULL"); n != 0 {
			t.Fatalf("%d rows published before the freeze: the leader was not held mid-batch", n)
		}
		if err := leader.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		froze := time.Now()
		sentByLeader := received()

		eventually(t, failover+30*time.Second, "the standby published every row", func() bool {
			return d.count(t, "published_at IS NULL") == 0
		})
		took := time.Since(froze)
		time.Sleep(200 * time.Millisecond)
		atThaw := received()

		// Thaw the old leader: its acks arrive, its mark fails (the server
		// ended its session); whatever it sends now is a duplicate.
		thawOut := len(leader.out.String())
		hold.open()
		if err := leader.cmd.Process.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
		time.Sleep(3 * time.Second)

		got, ids := rec.received()
		seen := map[string]bool{}
		for i, id := range ids {
			if i >= atThaw && !seen[id] {
				t.Errorf("after SIGCONT the old leader published %s for the first time (want only duplicates)", id)
			}
			seen[id] = true
		}
		lost, dups := tally(rows, ids)
		inStream := len(e.messages(t))
		t.Logf("counts: rows %d, sent by the frozen leader %d, received %d (after SIGCONT %d), duplicates %d, lost %d, in the stream %d; standby done %s after SIGSTOP (failover %s, leader's %s)",
			len(rows), sentByLeader, len(got), len(got)-atThaw, dups, lost, inStream, took.Round(100*time.Millisecond), failover, leaderFailover)
		for _, l := range strings.Split(leader.out.String()[thawOut:], "\n") {
			if strings.Contains(l, "level=ERROR") || strings.Contains(l, "level=WARN") {
				t.Logf("counts: the old leader after SIGCONT said: %.300s", l)
				break
			}
		}
		_ = standby
		checkOrder(t, got)
		if lost != 0 {
			t.Fatalf("%d rows lost", lost)
		}
		if inStream != len(rows) {
			t.Errorf("stream holds %d messages, want %d (one per row)", inStream, len(rows))
		}
		if took > failover+4*time.Second {
			t.Fatalf("the standby finished %s after the leader froze, want within the %s failover bound (+4s)", took.Round(100*time.Millisecond), failover)
		}
	})
}
