package e2e

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The skill's four checks, for PostgreSQL with JetStream and Kafka (kfake),
// and MariaDB with JetStream.

var checkStacks = []stack{pgJetStream, pgKafka, myJetStream}

// TestRollbackLeavesNoMessage is check 2: a rolled-back business transaction
// leaves no business row, no outbox row and sends no message, while the
// committed transactions around it are delivered.
func TestRollbackLeavesNoMessage(t *testing.T) {
	for _, s := range checkStacks {
		t.Run(s.String(), func(t *testing.T) {
			e := newEnv(t, s)
			cons := e.consume()
			relay := e.relay("relay", nil)
			// Only rolled-back transactions, on their own aggregates...
			rolled := e.produce("-prefix", "rolled", "-aggs", "3", "-per", "10", "-batch", "5", "-rollback-every", "1")
			// ...and every third transaction rolled back among committed ones.
			mixed := e.produce("-prefix", "mixed", "-aggs", "5", "-per", "12", "-batch", "4", "-rollback-every", "3")
			if rolled.Committed != 0 || rolled.RolledBack != 30 || mixed.Committed != 60 || mixed.RolledBack == 0 {
				t.Fatalf("producer: rolled %+v, mixed %+v", rolled, mixed)
			}
			e.waitDelivered(60 * time.Second)
			relay.stop(t)
			c := cons.finish(t)
			p := producerCounts{Sent: rolled.Sent + mixed.Sent, Committed: mixed.Committed}
			k := e.verify(p, c)
			for _, table := range []string{"outbox", "e2e_orders", "e2e_applied"} {
				if n := e.count(`SELECT count(*) FROM ` + table + ` WHERE aggregate_id LIKE 'rolled-%'`); n != 0 {
					t.Errorf("%s has %d rows of rolled-back transactions, want 0", table, n)
				}
			}
			if k.Committed != 60 || k.Distinct != 60 || k.BusinessRows != 60 {
				t.Errorf("committed %d, applied %d, business rows %d: want 60 each", k.Committed, k.Distinct, k.BusinessRows)
			}
			// The rolled-back n values were reused by the retried
			// transactions: a leaked message would show as a second
			// message for the same (aggregate, n).
			if n := e.count(`SELECT count(*) FROM (SELECT DISTINCT aggregate_id, n FROM e2e_applied) x`); n != 60 {
				t.Errorf("applied %d distinct (aggregate, n) pairs, want 60", n)
			}
			if got, ok := e.brokerCount(); ok && got != 60 {
				t.Errorf("the broker holds %d messages, want 60 (none from rolled-back transactions)", got)
			}
		})
	}
}

// brokerCount returns how many messages the destination holds, where the
// broker can tell.
func (e *env) brokerCount() (int, bool) {
	e.t.Helper()
	if e.stack.broker != "jetstream" {
		return 0, false
	}
	nc, err := nats.Connect(e.brokerURL)
	if err != nil {
		e.t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		e.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := js.Stream(ctx, e.typ)
	if err != nil {
		e.t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	return int(info.State.Msgs), true
}

var failpointRe = regexp.MustCompile(`failpoint after-publish reached: (\d+) messages acked`)

// TestKillBetweenPublishAndMark is check 1: the relay is SIGKILLed after
// the broker acked a batch and before the rows were marked; the restarted
// relay publishes the batch again and the consumer applies each message once.
func TestKillBetweenPublishAndMark(t *testing.T) {
	for _, s := range append(checkStacks, pgKafkaGo, pgSarama) {
		t.Run(s.String(), func(t *testing.T) {
			e := newEnv(t, s)
			cons := e.consume()
			p := e.produce("-aggs", "5", "-per", "10", "-batch", "50", "-workers", "1")
			first := e.relay("relay-1", []string{"OUTBOX_RELAY_FAILPOINT=after-publish:pause"})
			first.waitStderr(t, "failpoint after-publish reached", 60*time.Second)
			m := failpointRe.FindStringSubmatch(first.err.String())
			if m == nil {
				t.Fatalf("failpoint message without a count:\n%s", first.err.String())
			}
			acked, _ := strconv.Atoi(m[1])
			if acked != p.Committed {
				t.Fatalf("first batch acked %d messages, want all %d", acked, p.Committed)
			}
			// The consumer got them; the outbox still says unpublished.
			e.waitApplied(acked, 30*time.Second)
			if n := e.count(`SELECT count(*) FROM outbox WHERE published_at IS NULL`); n != p.Committed {
				t.Fatalf("%d rows unpublished while the relay is paused after publish, want %d", n, p.Committed)
			}
			first.kill()
			time.Sleep(2 * dupWindow)
			if n := e.count(`SELECT count(*) FROM outbox WHERE published_at IS NULL`); n != p.Committed {
				t.Fatalf("after SIGKILL %d rows unpublished, want %d (the batch was never marked)", n, p.Committed)
			}
			second := e.relay("relay-2", nil)
			e.waitDelivered(60 * time.Second)
			// Wait for the republished copies to reach the consumer too.
			time.Sleep(500 * time.Millisecond)
			second.stop(t)
			c := cons.finish(t)
			k := e.verify(p, c)
			if c.Duplicates < acked {
				t.Errorf("consumer saw %d duplicates, want at least %d: the killed batch must be published again", c.Duplicates, acked)
			}
			if k.Distinct != p.Committed || k.Published != p.Committed {
				t.Errorf("applied %d, published %d: want %d each", k.Distinct, k.Published, p.Committed)
			}
		})
	}
}

// TestOrderWithSeveralRelays is check 3: three relay processes, rapid
// single-message transactions per aggregate, one relay SIGKILLed and
// replaced mid-run; the consumer applies every aggregate's messages in
// creation order, in leader mode and in shard mode.
func TestOrderWithSeveralRelays(t *testing.T) {
	modes := []struct {
		name   string
		shards string
	}{{"leader", "1"}, {"shards", "4"}}
	for _, s := range checkStacks {
		for _, mode := range modes {
			t.Run(s.String()+"/"+mode.name, func(t *testing.T) {
				e := newEnv(t, s)
				cons := e.consume()
				var relays []*proc
				for i := range 3 {
					relays = append(relays, e.relay(fmt.Sprintf("relay-%d", i), nil, "--shards", mode.shards, "--batch-size", "50"))
				}
				done := make(chan producerCounts, 1)
				go func() {
					// 4 hot aggregates, 150 transactions each, one message
					// per transaction, as fast as the database takes them.
					done <- e.produceNoFatal("-prefix", "hot", "-aggs", "4", "-per", "150", "-batch", "1", "-workers", "4")
				}()
				time.Sleep(300 * time.Millisecond)
				relays[0].kill()
				relays = append(relays[1:], e.relay("relay-3", nil, "--shards", mode.shards, "--batch-size", "50"))
				p := <-done
				if p.Committed != 600 {
					t.Fatalf("producer committed %d, want 600", p.Committed)
				}
				e.waitDelivered(90 * time.Second)
				acquired := 0
				for _, r := range relays {
					if strings.Contains(r.err.String(), "outbox relay lock acquired") {
						acquired++
					}
					r.stop(t)
				}
				c := cons.finish(t)
				k := e.verify(p, c)
				if k.Distinct != 600 {
					t.Errorf("applied %d, want 600", k.Distinct)
				}
				t.Logf("%d of the last 3 relays held a lock at some point", acquired)
				if acquired == 0 {
					t.Errorf("no relay logged taking a lock")
				}
			})
		}
	}
}

// produceNoFatal is produce for goroutines: failures are reported with
// Errorf and zero counts.
func (e *env) produceNoFatal(args ...string) producerCounts {
	out, err := e.runAppErr(append([]string{"produce", "-dsn", e.dsn, "-type", e.typ}, args...)...)
	if err != nil {
		e.t.Errorf("e2eapp produce: %v", err)
		return producerCounts{}
	}
	return decodeCountsErr(e.t, out)
}
