package e2e

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Faults production brings, each run with its counts printed and checked by
// verify (lost == 0, inbox rows == distinct ids == applied rows, order per
// aggregate kept).

var faultStacks = []stack{pgJetStream, pgKafka, myJetStream}

// TestKillRelayRepeatedly: 100,000 messages over 500 aggregates on
// PostgreSQL + JetStream and 20,000 over 200 on the other stacks (100,000
// everywhere with OUTBOXIFY_LONG=1) while relays are SIGKILLed several times,
// at random times and right between publish and mark of a random batch (the
// OUTBOX_RELAY_FAILPOINT hook); two relays run at once, so a kill also
// hands the work over.
func TestKillRelayRepeatedly(t *testing.T) {
	for _, s := range faultStacks {
		aggs, per, kills, drain := 200, 100, 5, 90*time.Second
		if long || s == pgJetStream {
			// The 100,000-message run, by default on one stack so the
			// suite stays within minutes.
			aggs, per, kills, drain = 500, 200, 12, 8*time.Minute
		}
		t.Run(s.String(), func(t *testing.T) {
			e := newEnv(t, s)
			cons := e.consume()
			done := make(chan producerCounts, 1)
			began := time.Now()
			go func() {
				done <- e.produceNoFatal("-aggs", strconv.Itoa(aggs), "-per", strconv.Itoa(per), "-batch", "500", "-workers", "4")
			}()
			standby := e.relay("relay-standby", nil)
			atFailpoint, republished, sigkills := 0, 0, 0
			for i := range kills {
				if i%2 == 1 {
					// At a random time.
					r := e.relay(fmt.Sprintf("relay-%d", i), nil)
					time.Sleep(time.Duration(200+rand.IntN(1300)) * time.Millisecond)
					r.kill()
					sigkills++
				} else {
					// Right between publish and mark of a random batch: the
					// standby (which would keep the lock) is killed at a
					// random point first, then replaced after this kill.
					r := e.relay(fmt.Sprintf("relay-%d", i), []string{fmt.Sprintf("OUTBOX_RELAY_FAILPOINT=after-publish:pause:%d", 1+rand.IntN(4))})
					time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
					standby.kill()
					standby = nil
					sigkills++
					deadline := time.Now().Add(5 * time.Second)
					for time.Now().Before(deadline) && !strings.Contains(r.err.String(), "failpoint after-publish reached") {
						time.Sleep(20 * time.Millisecond)
					}
					r.kill()
					sigkills++
					if m := failpointRe.FindStringSubmatch(r.err.String()); m != nil {
						n, _ := strconv.Atoi(m[1])
						atFailpoint++
						republished += n
					}
					standby = e.relay(fmt.Sprintf("relay-standby-%d", i), nil)
				}
			}
			p := <-done
			if t.Failed() {
				t.FailNow()
			}
			e.waitDelivered(drain)
			elapsed := time.Since(began)
			standby.stop(t)
			c := cons.finish(t)
			k := e.verify(p, c)
			t.Logf("%d relay SIGKILLs, %d of them between publish and mark (%d acked messages left unmarked); %d messages end to end in %s",
				sigkills, atFailpoint, republished, k.Distinct, elapsed.Round(time.Millisecond))
			if atFailpoint == 0 {
				t.Errorf("no kill landed between publish and mark")
			}
			if k.Committed != aggs*per || k.Distinct != aggs*per {
				t.Errorf("committed %d, applied %d, want %d", k.Committed, k.Distinct, aggs*per)
			}
		})
	}
}

// TestDatabaseConnectionsTerminated: while the relay drains a backlog, every
// connection to the test database (relay, its listener, consumer) is
// terminated several times (pg_terminate_backend; KILL on MariaDB). The same
// relay process recovers by itself.
func TestDatabaseConnectionsTerminated(t *testing.T) {
	for _, s := range faultStacks {
		t.Run(s.String(), func(t *testing.T) {
			e := newEnv(t, s)
			p := e.produce("-aggs", "50", "-per", "100", "-batch", "250")
			cons := e.consume()
			relay := e.relay("relay", nil, "--batch-size", "100")
			killed := 0
			for range 5 {
				time.Sleep(300 * time.Millisecond)
				killed += e.terminateConnections()
			}
			// More messages after the terminations: the relay must still be
			// working, not only finishing what it had.
			p2 := e.produce("-prefix", "after", "-aggs", "5", "-per", "20", "-batch", "10")
			e.waitDelivered(2 * time.Minute)
			if !relay.running() {
				t.Fatalf("the relay exited after its connections were terminated:\n%s", tail(relay.err.String(), 20))
			}
			relay.stop(t)
			c := cons.finish(t)
			t.Logf("terminated %d database connections in 5 rounds; consumer retried %d transactions", killed, c.Retries)
			if killed == 0 {
				t.Errorf("no connection was terminated: the fault did not happen")
			}
			e.verify(producerCounts{Sent: p.Sent + p2.Sent, Committed: p.Committed + p2.Committed}, c)
		})
	}
}

// TestPostgresCrashRestart: the database itself goes away (a private
// PostgreSQL cluster stopped with pg_ctl -m immediate, then started again
// and recovered) while the relay drains a backlog; the same relay process
// (and its LISTEN connection) comes back by itself.
func TestPostgresCrashRestart(t *testing.T) {
	for _, s := range []stack{pgJetStream} {
		t.Run(s.String(), func(t *testing.T) {
			pg := newPGCluster(t)
			e := newEnv(t, s, withDSN(pg.createDB("e2e")))
			p := e.produce("-aggs", "50", "-per", "100", "-batch", "250")
			cons := e.consume()
			relay := e.relay("relay", nil, "--batch-size", "100")
			time.Sleep(400 * time.Millisecond)
			pg.crash()
			down := time.Now()
			time.Sleep(2 * time.Second)
			pg.start()
			t.Logf("PostgreSQL down (crashed, then recovered) for %s", time.Since(down).Round(time.Millisecond))
			// New messages after the restart wake the relay through LISTEN
			// or polling; both must work again.
			p2 := e.produce("-prefix", "after", "-aggs", "5", "-per", "20", "-batch", "10")
			e.waitDelivered(2 * time.Minute)
			if !relay.running() {
				t.Fatalf("the relay exited when PostgreSQL went away:\n%s", tail(relay.err.String(), 20))
			}
			relay.stop(t)
			c := cons.finish(t)
			if !strings.Contains(relay.err.String(), "level=WARN") {
				t.Errorf("the relay logged no warning: the outage did not reach it")
			}
			e.verify(producerCounts{Sent: p.Sent + p2.Sent, Committed: p.Committed + p2.Committed}, c)
		})
	}
}

// terminateConnections ends every other session on the test database and
// returns how many.
func (e *env) terminateConnections() int {
	e.t.Helper()
	if e.stack.db == "postgres" {
		return e.count(`SELECT count(*) FROM (SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid()) x WHERE ok`)
	}
	conn, err := e.db.Conn(e.t.Context())
	if err != nil {
		e.t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.QueryContext(e.t.Context(), `SELECT id FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()`)
	if err != nil {
		e.t.Fatal(err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			e.t.Fatal(err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	n := 0
	for _, id := range ids {
		if _, err := conn.ExecContext(e.t.Context(), fmt.Sprintf("KILL CONNECTION %d", id)); err == nil {
			n++
		}
	}
	return n
}

// TestBrokerUnavailable: the broker goes away for a few seconds while
// messages flow (a private nats-server stopped and started again on the same
// port and storage; a kfake cluster that closes every connection), then
// comes back. Nothing is lost, no attempt is used up
// (unavailable is not a rejection), nothing is dead-lettered, per-aggregate
// order holds, and the same relay process carries on.
func TestBrokerUnavailable(t *testing.T) {
	for _, s := range faultStacks {
		t.Run(s.String(), func(t *testing.T) {
			var srv outageBroker
			if s.broker == "jetstream" {
				srv = newNATSServer(t)
			} else {
				srv = newKafka(t)
			}
			e := newEnv(t, s, withBroker(srv))
			cons := e.consume()
			relay := e.relay("relay", nil, "--max-attempts", "2", "--publish-timeout", "1s")
			done := make(chan producerCounts, 1)
			go func() {
				done <- e.produceNoFatal("-aggs", "20", "-per", "100", "-batch", "20", "-workers", "2", "-pause", "20ms")
			}()
			time.Sleep(700 * time.Millisecond)
			srv.stop()
			down := time.Now()
			time.Sleep(3 * time.Second)
			pendingWhileDown := e.count(`SELECT count(*) FROM outbox WHERE published_at IS NULL`)
			srv.startAgain()
			t.Logf("broker down for %s; %d rows waited meanwhile", time.Since(down).Round(time.Millisecond), pendingWhileDown)
			p := <-done
			if t.Failed() {
				t.FailNow()
			}
			e.waitDelivered(2 * time.Minute)
			if !relay.running() {
				t.Fatalf("the relay exited while the broker was down:\n%s", tail(relay.err.String(), 20))
			}
			relay.stop(t)
			c := cons.finish(t)
			k := e.verify(p, c)
			if pendingWhileDown == 0 {
				t.Errorf("no row waited while the broker was down: the fault did not bite")
			}
			if burned := e.count(`SELECT count(*) FROM outbox WHERE attempts > 0`); burned != 0 {
				t.Errorf("%d messages had attempts counted for an unreachable broker, want 0", burned)
			}
			if k.Dead != 0 {
				t.Errorf("%d dead letters after an outage, want 0", k.Dead)
			}
		})
	}
}

// TestCommitOrderNotStartOrder: pairs of transactions on one aggregate start
// in one order and commit in the other (through the writer's per-aggregate
// lock), with relays running; the consumer applies them in commit order.
func TestCommitOrderNotStartOrder(t *testing.T) {
	for _, s := range faultStacks {
		t.Run(s.String(), func(t *testing.T) {
			e := newEnv(t, s)
			cons := e.consume()
			relays := []*proc{e.relay("relay-0", nil, "--poll-interval", "10ms"), e.relay("relay-1", nil, "--poll-interval", "10ms")}
			out := e.runApp("swap", "-dsn", e.dsn, "-type", e.typ, "-agg", "swap", "-rounds", "40")
			p := decodeCounts(t, out)
			e.waitDelivered(60 * time.Second)
			for _, r := range relays {
				r.stop(t)
			}
			c := cons.finish(t)
			k := e.verify(p, c)
			t.Logf("%d of 20 rounds had the second transaction wait on the first's aggregate lock", p.BlockedRounds)
			if k.Distinct != 80 {
				t.Errorf("applied %d, want 80", k.Distinct)
			}
			if p.BlockedRounds != 20 {
				t.Errorf("%d rounds blocked on the aggregate lock, want 20: the writer's per-aggregate lock did not hold", p.BlockedRounds)
			}
			// The trap: the earlier-started transaction has the earlier
			// created_at (now() is the transaction start) but commits later.
			if n := e.count(`SELECT count(*) FROM (SELECT o.seq, o.created_at, LAG(o.created_at) OVER (ORDER BY o.seq) AS prev FROM outbox o) x WHERE x.created_at < x.prev`); n == 0 && s.db == "postgres" {
				t.Errorf("no created_at inversion: the test did not start the transactions in the opposite order to their commits")
			}
		})
	}
}

// TestPoisonMessage: one message the broker rejects every time (larger than
// the stream's max message size) is dead-lettered after --max-attempts; with
// --on-dead-letter=block the rest of its aggregate waits, with skip it goes
// on; every other aggregate flows.
func TestPoisonMessage(t *testing.T) {
	for _, s := range append(faultStacks, pgKafkaGo, pgSarama) {
		for _, mode := range []string{"block", "skip"} {
			t.Run(s.String()+"/"+mode, func(t *testing.T) {
				e := newEnv(t, s, withMaxMsgSize(2048))
				cons := e.consume()
				p := e.produce("-aggs", "6", "-per", "10", "-batch", "10", "-workers", "1",
					"-poison-agg", "0", "-poison-n", "3", "-poison-bytes", "4096")
				relay := e.relay("relay", nil, "--max-attempts", "3", "--retry-base", "50ms", "--retry-max", "200ms", "--on-dead-letter", mode)
				eventually(t, 20*time.Second, "the poison message dead-lettered", func() bool {
					return e.count(`SELECT count(*) FROM outbox WHERE dead_at IS NOT NULL`) >= 1
				})
				time.Sleep(500 * time.Millisecond)      // a wrong relay may dead-letter more
				small := `length(payload::text) < 1000` // every message but the 4 KiB poison
				if s.db == "mysql" {
					small = `LENGTH(payload) < 1000`
				}
				if innocent := e.deadLetters(small); innocent != "" {
					t.Fatalf("messages that the broker accepts alone were dead-lettered with the poison message (rejected together):\n%s", innocent)
				}
				var attempts int
				var lastError string
				if err := e.db.QueryRow(`SELECT attempts, last_error FROM outbox WHERE dead_at IS NOT NULL`).Scan(&attempts, &lastError); err != nil {
					t.Fatal(err)
				}
				t.Logf("dead letter after %d attempts: %s", attempts, lastError)
				if attempts != 3 || lastError == "" {
					t.Errorf("dead letter has attempts %d, last_error %q: want 3 and the broker's error", attempts, lastError)
				}
				others := ` AND aggregate_id <> 'agg-0'`
				eventually(t, 60*time.Second, "the other aggregates delivered", func() bool { return e.lost(others) == 0 })
				if mode == "block" {
					time.Sleep(time.Second) // give a wrong relay time to publish what must wait
					if n := e.count(`SELECT count(*) FROM outbox WHERE aggregate_id = 'agg-0' AND published_at IS NULL AND dead_at IS NULL`); n != 7 {
						t.Errorf("block: %d messages of the poisoned aggregate wait, want the 7 after it", n)
					}
					if n := e.count(`SELECT count(*) FROM e2e_applied WHERE aggregate_id = 'agg-0'`); n != 2 {
						t.Errorf("block: %d messages of the poisoned aggregate applied, want the 2 before it", n)
					}
				} else {
					e.waitDelivered(60 * time.Second)
					if n := e.count(`SELECT count(*) FROM e2e_applied WHERE aggregate_id = 'agg-0'`); n != 9 {
						t.Errorf("skip: %d messages of the poisoned aggregate applied, want 9", n)
					}
				}
				relay.stop(t)
				c := cons.finish(t)
				k := e.tally(p, c)
				held := 0
				if mode == "block" {
					// Held back on purpose behind the dead letter: still
					// pending, not lost; they go out after a replay.
					held = e.count(`SELECT count(*) FROM outbox o WHERE aggregate_id = 'agg-0' AND dead_at IS NULL AND published_at IS NULL
						AND NOT EXISTS (SELECT 1 FROM inbox i WHERE i.message_id = o.id)`)
					k.Lost -= held
				}
				t.Logf("counts: %s held_back=%d", k, held)
				wantHeld := map[string]int{"block": 7, "skip": 0}[mode]
				if k.Lost != 0 || held != wantHeld || k.Pending != wantHeld {
					t.Errorf("lost %d, held back %d, pending %d: want 0, %d, %d", k.Lost, held, k.Pending, wantHeld, wantHeld)
				}
				if k.Dead != 1 || k.Distinct != 60-1-wantHeld || k.Inbox != k.Distinct || k.Applied != k.Distinct {
					t.Errorf("dead %d, applied %d (distinct %d, inbox %d): want 1 dead and %d applied once", k.Dead, k.Applied, k.Distinct, k.Inbox, 60-1-wantHeld)
				}
				if k.OrderViolations != 0 {
					t.Errorf("order violated:\n%s", e.orderReport())
				}
				// Replay requeues the dead letter; it is rejected again, but
				// the command counts and changes what it says.
				out := runCmd(t, e.bin.relay, "replay", "--database-url", e.dsn, "--dead")
				if !strings.Contains(out, "1 messages match") {
					t.Errorf("replay --dead (dry run) printed %q, want 1 match", out)
				}
			})
		}
	}
}

func runCmd(t *testing.T, bin string, args ...string) string {
	t.Helper()
	p := start(t, "cmd", bin, nil, args...)
	<-p.done
	if p.exitErr != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), p.exitErr, p.err.String())
	}
	return p.out.String()
}

// deadLetters lists the dead-lettered rows matching where.
func (e *env) deadLetters(where string) string {
	e.t.Helper()
	rows, err := e.db.Query(`SELECT aggregate_id, attempts, last_error FROM outbox WHERE dead_at IS NOT NULL AND (` + where + `) ORDER BY seq`)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var agg, lastErr string
		var attempts int
		if err := rows.Scan(&agg, &attempts, &lastErr); err != nil {
			e.t.Fatal(err)
		}
		fmt.Fprintf(&b, "  %s after %d attempts: %s\n", agg, attempts, lastErr)
	}
	return b.String()
}
