package relaytest

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/segmentio/kafka-go"
)

// dialects run the core tests on both databases (relay to JetStream).
var dialects = []struct{ name, ident string }{{"postgres", "pg_jetstream"}, {"mysql", "my_jetstream"}}

func forDialects(t *testing.T, f func(t *testing.T, c relayCase, dialect string)) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) { f(t, get(t, d.ident), d.name) })
	}
}

// ---- JetStream ----

type jsEnv struct {
	url    string
	js     jetstream.JetStream
	stream string
	prefix string // subjects prefix.>
}

func newJetStream(t *testing.T) *jsEnv {
	t.Helper()
	u := needEnv(t, "OUTBOXIFY_NATS_URL")
	nc, err := nats.Connect(u)
	if err != nil {
		t.Fatalf("connect NATS: %v", err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	e := &jsEnv{url: u, js: js, stream: strings.ToUpper(randName("RELAY")), prefix: randName("relay")}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: e.stream, Subjects: []string{e.prefix + ".>"},
		Duplicates: 5 * time.Minute, Storage: jetstream.MemoryStorage, MaxMsgSize: 64 * 1024}); err != nil {
		t.Fatalf("create stream: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = js.DeleteStream(ctx, e.stream)
	})
	return e
}

func (e *jsEnv) messages(t *testing.T) []*jetstream.RawStreamMsg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := e.js.Stream(ctx, e.stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []*jetstream.RawStreamMsg
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if err != nil {
			t.Fatalf("get stream message %d: %v", seq, err)
		}
		out = append(out, m)
	}
	return out
}

func aggregates(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%d", prefix, i)
	}
	return out
}

// TestDeliversInOrderWithHeaders: every row reaches JetStream once, in
// per-aggregate order, with its id in Nats-Msg-Id and outbox-id, its event
// type, its headers (traceparent), and a base64-stored payload decoded.
func TestDeliversInOrderWithHeaders(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		e := newJetStream(t)
		subject := e.prefix + ".orders"
		rows := sequence(subject, aggregates("order", 12), 240)
		rows = append(rows,
			row{AggregateType: subject, AggregateID: "traced", Payload: `{"agg": "traced", "n": 1}`, EventType: "order.traced",
				Headers: map[string]string{"traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "tenant": "acme"}},
			row{AggregateType: subject, AggregateID: "binary", Payload: `"` + base64.StdEncoding.EncodeToString([]byte{0, 1, 2, 0xff}) + `"`,
				Headers: map[string]string{"content-transfer-encoding": "base64"}},
		)
		rows = d.insert(t, rows...)
		startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--batch-size", "50")...)
		eventually(t, 60*time.Second, "every row published", func() bool { return d.count(t, "published_at IS NULL") == 0 })

		got := e.messages(t)
		if len(got) != len(rows) {
			t.Fatalf("stream holds %d messages, want %d", len(got), len(rows))
		}
		byID := map[string]row{}
		for _, r := range rows {
			byID[r.ID] = r
		}
		var ordered []struct{ agg, body string }
		for _, m := range got {
			id := m.Header.Get("outbox-id")
			r, ok := byID[id]
			if !ok {
				t.Fatalf("message with unknown outbox-id %q", id)
			}
			delete(byID, id)
			if m.Header.Get("Nats-Msg-Id") != id || m.Header.Get("event-type") != r.EventType ||
				m.Header.Get("aggregate-id") != r.AggregateID || m.Subject != subject {
				t.Fatalf("message %s: subject %s, headers %v; want subject %s, Nats-Msg-Id = outbox-id, event-type %s, aggregate-id %s",
					id, m.Subject, m.Header, subject, r.EventType, r.AggregateID)
			}
			switch r.AggregateID {
			case "traced":
				if m.Header.Get("traceparent") != r.Headers["traceparent"] || m.Header.Get("tenant") != "acme" {
					t.Fatalf("row headers not copied: %v", m.Header)
				}
			case "binary":
				if string(m.Data) != string([]byte{0, 1, 2, 0xff}) || m.Header.Get("content-transfer-encoding") != "" {
					t.Fatalf("base64 payload not decoded: data %x headers %v", m.Data, m.Header)
				}
				continue
			}
			ordered = append(ordered, struct{ agg, body string }{m.Header.Get("aggregate-id"), string(m.Data)})
		}
		checkOrder(t, ordered)
	})
}

// TestJetStreamAnswers: the stream's answers sorted as they should be. A
// message over the stream's MaxMsgSize is rejected (the stream's API error:
// attempts used, dead-lettered with its error); a subject no stream captures
// (no responders) is "unavailable" (no attempt used, left pending); every
// other message is acked and marked.
func TestJetStreamAnswers(t *testing.T) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	e := newJetStream(t)
	subject := e.prefix + ".orders"
	var rows []row
	for n := 1; n <= 3; n++ {
		for _, agg := range []string{"big", "a", "b"} {
			payload := fmt.Sprintf(`{"agg": %q, "n": %d}`, agg, n)
			if agg == "big" && n == 2 {
				payload = fmt.Sprintf(`{"agg": %q, "n": %d, "pad": %q}`, agg, n, strings.Repeat("x", 100*1024))
			}
			rows = append(rows, row{AggregateType: subject, AggregateID: agg, Payload: payload})
		}
	}
	rows = append(rows, row{AggregateType: randName("nostream") + ".orders", AggregateID: "lost", Payload: `{"n": 1}`})
	rows = d.insert(t, rows...)
	big, lost := rows[3].ID, rows[len(rows)-1].ID
	startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--max-attempts", "2", "--on-dead-letter", "skip")...)
	eventually(t, 30*time.Second, "the big message dead-lettered and the rest of the stream's published", func() bool {
		return d.state(t, big).dead && d.count(t, "published_at IS NULL AND dead_at IS NULL") == 1
	})
	if s := d.state(t, big); s.attempts != 2 || !strings.Contains(s.lastError, "maximum") {
		t.Fatalf("message over MaxMsgSize: %+v, want 2 attempts and the stream's size error", s)
	}
	time.Sleep(300 * time.Millisecond) // several retries of the unroutable one
	if s := d.state(t, lost); s.published || s.dead || s.attempts != 0 {
		t.Fatalf("message no stream captures: %+v, want pending with no attempt used", s)
	}
	if n := d.count(t, "attempts > 0 AND id <> $1", big); n != 0 {
		t.Fatalf("%d acked messages used attempts", n)
	}
	if got := len(e.messages(t)); got != len(rows)-2 {
		t.Fatalf("stream holds %d messages, want %d", got, len(rows)-2)
	}
}

// TestNeverMarksBeforeAck: while the broker has not acked, no row is marked;
// after the ack, every row is.
func TestNeverMarksBeforeAck(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t, sequence("things", aggregates("a", 3), 9)...)
		rec := &recorder{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
		rec.decide = func(m *Msg, call int) error {
			// At ack time the row must still be unpublished.
			if s := d.state(t, m.ID); s.published {
				return fmt.Errorf("row %s marked published before its ack", m.ID)
			}
			return nil
		}
		runFake(t, c, d, rec, defaultFake())
		select {
		case <-rec.entered:
		case <-time.After(30 * time.Second):
			t.Fatal("relay never published")
		}
		time.Sleep(200 * time.Millisecond)
		if n := d.count(t, "published_at IS NOT NULL"); n != 0 {
			t.Fatalf("%d rows marked published while the broker had not acked", n)
		}
		close(rec.gate)
		eventually(t, 30*time.Second, "all rows published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
		if got := len(rec.ackedIDs()); got != len(rows) {
			t.Fatalf("broker acked %d messages, want %d", got, len(rows))
		}
		for _, r := range rows {
			if s := d.state(t, r.ID); s.attempts != 0 || s.lastError != "" {
				t.Fatalf("row %s: %+v", r.ID, s)
			}
		}
	})
}

func ackOrder(rec *recorder) map[string][]string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out := map[string][]string{}
	for _, m := range rec.acked {
		out[m.AggregateID] = append(out[m.AggregateID], m.ID)
	}
	return out
}

func ackIndex(rec *recorder, id string) int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for i, m := range rec.acked {
		if m.ID == id {
			return i
		}
	}
	return -1
}

// TestRejectionHoldsBackItsAggregate: A2 is rejected once; A3 (same batch)
// and A4 (a later batch) wait for A2's retry, B goes on meanwhile; the
// rejection uses one attempt and is recorded.
func TestRejectionHoldsBackItsAggregate(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t,
			row{AggregateType: "t", AggregateID: "A", Payload: `{"n":1}`},
			row{AggregateType: "t", AggregateID: "B", Payload: `{"n":1}`},
			row{AggregateType: "t", AggregateID: "A", Payload: `{"n":2}`},
			row{AggregateType: "t", AggregateID: "A", Payload: `{"n":3}`},
			row{AggregateType: "t", AggregateID: "B", Payload: `{"n":2}`},
		)
		a2 := rows[2].ID
		rejected := make(chan struct{})
		var once sync.Once // the relay offers A2 twice per attempt: in its wave, then alone
		rec := &recorder{}
		rec.decide = func(m *Msg, call int) error {
			if m.ID == a2 && m.Attempts == 0 {
				once.Do(func() { close(rejected) })
				return errors.New("broker says no (test)")
			}
			return nil
		}
		o := defaultFake()
		// A2's retry comes 1-2 s later: long enough for B3 to go first even on a busy machine.
		o.RetryBase, o.RetryMax = 2*time.Second, 2*time.Second
		runFake(t, c, d, rec, o)
		<-rejected
		// A later batch: A4 must wait too, B3 must not.
		later := d.insert(t,
			row{AggregateType: "t", AggregateID: "A", Payload: `{"n":4}`},
			row{AggregateType: "t", AggregateID: "B", Payload: `{"n":3}`},
		)
		eventually(t, 30*time.Second, "all rows published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
		want := map[string][]string{"A": {rows[0].ID, rows[2].ID, rows[3].ID, later[0].ID}, "B": {rows[1].ID, rows[4].ID, later[1].ID}}
		got := ackOrder(rec)
		for agg, ids := range want {
			if strings.Join(got[agg], ",") != strings.Join(ids, ",") {
				t.Fatalf("aggregate %s acked %v, want %v", agg, got[agg], ids)
			}
		}
		if ackIndex(rec, later[1].ID) > ackIndex(rec, a2) {
			t.Fatalf("B3 waited for A2's retry; other aggregates must go on")
		}
		if s := d.state(t, a2); s.attempts != 1 || !strings.Contains(s.lastError, "broker says no") || s.dead {
			t.Fatalf("A2 after one rejection: %+v", s)
		}
		if s := d.state(t, rows[3].ID); s.attempts != 0 {
			t.Fatalf("A3 was held back, not attempted, yet has %d attempts", s.attempts)
		}
	})
}

// TestUnavailableBrokerUsesNoAttempts: while the broker is unreachable
// nothing is marked and no attempt is used; afterwards all rows go out in order.
func TestUnavailableBrokerUsesNoAttempts(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t, sequence("t", aggregates("u", 4), 20)...)
		rec := &recorder{}
		var calls int
		rec.decide = func(m *Msg, call int) error {
			calls = call
			if call <= 4 {
				return unavailable{"connection refused (test)"}
			}
			return nil
		}
		o := defaultFake()
		o.MaxAttempts = 1 // a single counted failure would dead-letter
		runFake(t, c, d, rec, o)
		eventually(t, 30*time.Second, "all rows published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
		if calls <= 4 {
			t.Fatalf("broker was never unavailable (calls %d)", calls)
		}
		for _, r := range rows {
			if s := d.state(t, r.ID); s.attempts != 0 || s.dead {
				t.Fatalf("row %s after an outage: %+v (attempts must not be used)", r.ID, s)
			}
		}
		var payloads []struct{ agg, body string }
		rec.mu.Lock()
		for _, m := range rec.acked {
			payloads = append(payloads, struct{ agg, body string }{m.AggregateID, string(m.Payload)})
		}
		rec.mu.Unlock()
		checkOrder(t, payloads)
	})
}

// TestRecoversSoonAfterOutage: the broker is unreachable for a while; the
// relay's waits between tries stay within OutageRetryMax, not the
// per-message RetryBase/RetryMax, so the rows go out soon after the broker
// is back.
func TestRecoversSoonAfterOutage(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		d.insert(t, sequence("t", aggregates("o", 4), 12)...)
		var mu sync.Mutex
		down := true
		rec := &recorder{}
		rec.decide = func(m *Msg, call int) error {
			mu.Lock()
			defer mu.Unlock()
			if down {
				return unavailable{"connection refused (test)"}
			}
			return nil
		}
		o := defaultFake()
		// Rejection backoff that would keep the relay away for seconds.
		o.RetryBase, o.RetryMax, o.OutageRetryMax = 10*time.Second, time.Hour, 200*time.Millisecond
		runFake(t, c, d, rec, o)
		time.Sleep(1500 * time.Millisecond)
		if n := d.count(t, "published_at IS NOT NULL OR attempts > 0"); n != 0 {
			t.Fatalf("%d rows changed during the outage", n)
		}
		mu.Lock()
		down = false
		back := time.Now()
		mu.Unlock()
		eventually(t, 30*time.Second, "all rows published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
		if took := time.Since(back); took > 1500*time.Millisecond {
			t.Fatalf("rows published %s after the broker came back, want within 1.5s (outage retry max 200ms)", took)
		}
	})
}

// TestSkipModeDeadLetterReleasesAggregate: in skip mode the later messages
// of a dead-lettered message's aggregate go at once, not after the retry
// delay the dead row will never use.
func TestSkipModeDeadLetterReleasesAggregate(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t,
			row{AggregateType: "t", AggregateID: "X", Payload: `{"n":1}`},
			row{AggregateType: "t", AggregateID: "X", Payload: `{"n":2}`},
		)
		rec := &recorder{}
		rec.decide = func(m *Msg, call int) error {
			if m.ID == rows[0].ID {
				return errors.New("schema rejected (test)")
			}
			return nil
		}
		o := defaultFake()
		o.OnDeadLetter, o.MaxAttempts = "skip", 1
		// A retry delay of 15-30s, were the dead row given one.
		o.RetryBase, o.RetryMax = 30*time.Second, time.Hour
		runFake(t, c, d, rec, o)
		eventually(t, 30*time.Second, "X1 dead-lettered", func() bool { return d.state(t, rows[0].ID).dead })
		died := time.Now()
		eventually(t, 30*time.Second, "X2 published", func() bool { return d.state(t, rows[1].ID).published })
		if took := time.Since(died); took > 3*time.Second {
			t.Fatalf("X2 published %s after X1 was dead-lettered, want within 3s in skip mode", took)
		}
	})
}

// TestRetryBackoffGrowsWithJitter: a message that keeps being rejected
// waits RetryBase·2^(attempts-1), capped at RetryMax, of which up to half is
// random: the waits grow, stop growing at the cap, and messages that failed
// together do not retry together.
func TestRetryBackoffGrowsWithJitter(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t,
			row{AggregateType: "t", AggregateID: "J1", Payload: `{"n":1}`},
			row{AggregateType: "t", AggregateID: "J2", Payload: `{"n":1}`},
			row{AggregateType: "t", AggregateID: "J3", Payload: `{"n":1}`},
			row{AggregateType: "t", AggregateID: "J4", Payload: `{"n":1}`},
		)
		const maxAttempts = 9 // the last wait, uncapped, would be 3.2-6.4 s
		base, capped := 50*time.Millisecond, 800*time.Millisecond
		var mu sync.Mutex
		seen := map[string][]time.Time{} // per message: when attempt k (k = m.Attempts) was first offered
		rec := &recorder{}
		rec.decide = func(m *Msg, call int) error {
			mu.Lock()
			defer mu.Unlock()
			if len(seen[m.ID]) == m.Attempts {
				seen[m.ID] = append(seen[m.ID], time.Now())
			}
			return errors.New("broker says no (test)")
		}
		o := defaultFake()
		o.MaxAttempts, o.RetryBase, o.RetryMax = maxAttempts, base, capped
		runFake(t, c, d, rec, o)
		eventually(t, 60*time.Second, "all rows dead-lettered", func() bool { return d.count(t, "dead_at IS NOT NULL") == len(rows) })

		mu.Lock()
		defer mu.Unlock()
		// Slack over the nominal wait for polling, the batch and a busy machine;
		// the wait itself is never shorter than half the nominal one.
		const slack = time.Second
		var totals []time.Duration
		for _, r := range rows {
			ts := seen[r.ID]
			if len(ts) != maxAttempts {
				t.Fatalf("message %s offered at %d distinct attempts, want %d", r.ID, len(ts), maxAttempts)
			}
			for k := 1; k < len(ts); k++ {
				nominal := min(base<<(k-1), capped)
				gap := ts[k].Sub(ts[k-1])
				if gap < nominal/2-5*time.Millisecond || gap > nominal+slack {
					t.Errorf("message %s: wait before attempt %d = %s, want %s..%s (base %s, max %s)",
						r.ID, k+1, gap.Round(time.Millisecond), nominal/2, nominal+slack, base, capped)
				}
			}
			totals = append(totals, ts[len(ts)-1].Sub(ts[0]))
		}
		lo, hi := totals[0], totals[0]
		for _, v := range totals {
			lo, hi = min(lo, v), max(hi, v)
		}
		// Without jitter the four fail in one batch and retry in one batch
		// each time: their totals agree to a poll tick.
		if hi-lo < 50*time.Millisecond {
			t.Errorf("four messages failing together retried in step (totals %v): no jitter", totals)
		}
	})
}

// TestRetryWaitCountsFromTheFailure: a publish that fails after a slow
// broker wait is offered again a backoff after the failure, not a backoff
// after the batch began (issue 21: PostgreSQL's now() is the start of the
// batch transaction, so a 30 s publish wait made the row due at once).
func TestRetryWaitCountsFromTheFailure(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		d.insert(t, row{AggregateType: "t", AggregateID: "S1", Payload: `{"n":1}`})
		const slow = 1500 * time.Millisecond
		base := time.Second // the first wait is 0.5-1 s with jitter
		var failedAt, retriedAt time.Time
		rec := &recorder{}
		rec.decide = func(m *Msg, call int) error {
			if m.Attempts == 0 {
				time.Sleep(slow) // the broker answers late, then refuses
				failedAt = time.Now()
				return errors.New("slow broker says no (test)")
			}
			if retriedAt.IsZero() {
				retriedAt = time.Now()
			}
			return nil
		}
		o := defaultFake()
		o.RetryBase, o.RetryMax = base, base
		runFake(t, c, d, rec, o)
		eventually(t, 30*time.Second, "the row published on its retry", func() bool { return d.count(t, "published_at IS NOT NULL") == 1 })
		rec.mu.Lock()
		gap := retriedAt.Sub(failedAt)
		rec.mu.Unlock()
		if gap < base/2-50*time.Millisecond {
			t.Errorf("retried %s after the failure, want at least %s (the backoff counts from the failure, not from the batch's start)", gap.Round(time.Millisecond), base/2)
		}
	})
}

// TestFrozenLeaderFailsOver: the leading relay freezes mid-batch (its
// publish never returns, as under SIGSTOP): the database ends its batch
// session once it has been idle for Failover, which releases the leader
// lock, and a standby publishes every row within the bound. Whatever the
// frozen leader acked is at most a duplicate; the standby's copies arrive
// in insert order per aggregate.
func TestFrozenLeaderFailsOver(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t,
			row{AggregateType: "t", AggregateID: "F1", Payload: `{"n":1}`},
			row{AggregateType: "t", AggregateID: "F1", Payload: `{"n":2}`},
			row{AggregateType: "t", AggregateID: "F2", Payload: `{"n":1}`},
		)
		const failover = 3 * time.Second
		thaw := make(chan struct{})
		defer close(thaw)
		frozen := &recorder{entered: make(chan struct{}, 1)}
		frozen.decide = func(m *Msg, call int) error {
			<-thaw // frozen: ignores its context, like a stopped process
			return nil
		}
		o := defaultFake()
		o.Failover = failover
		runFake(t, c, d, frozen, o)
		select {
		case <-frozen.entered:
		case <-time.After(20 * time.Second):
			t.Fatal("the first relay never started a batch")
		}
		froze := time.Now()
		standby := &recorder{}
		runFake(t, c, d, standby, o)
		eventually(t, failover+10*time.Second, "the standby published every row", func() bool {
			return d.count(t, "published_at IS NOT NULL") == len(rows)
		})
		// the server's own check runs at its second granularity (MariaDB)
		if took := time.Since(froze); took > failover+2*time.Second {
			t.Errorf("standby took over after %s, want within the %s failover bound (+2s)", took.Round(100*time.Millisecond), failover)
		}
		got := standby.ackedIDs()
		if len(got) != len(rows) {
			t.Fatalf("standby acked %d messages, want %d", len(got), len(rows))
		}
		if got[0] != rows[0].ID || (got[1] != rows[1].ID && got[2] != rows[1].ID) {
			t.Errorf("standby order %v: F1's rows must come in insert order (%s, %s)", got, rows[0].ID, rows[1].ID)
		}
	})
}

// TestSlowHealthyBatchCommits: a broker that acks after 80% of the batch's
// publish budget is not cut off by the batch session's server-side limit:
// the batch commits and nothing is published twice.
func TestSlowHealthyBatchCommits(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t,
			row{AggregateType: "t", AggregateID: "H1", Payload: `{"n":1}`},
			row{AggregateType: "t", AggregateID: "H2", Payload: `{"n":1}`},
		)
		const failover = 4 * time.Second
		budget := failover * 3 / 4
		rec := &recorder{}
		var once sync.Once
		rec.decide = func(m *Msg, call int) error {
			once.Do(func() { time.Sleep(budget * 8 / 10) })
			return nil
		}
		o := defaultFake()
		o.Failover = failover
		runFake(t, c, d, rec, o)
		eventually(t, 20*time.Second, "both rows published", func() bool { return d.count(t, "published_at IS NOT NULL") == len(rows) })
		time.Sleep(failover) // a batch cut off would be published again by now
		if got := rec.ackedIDs(); len(got) != len(rows) {
			t.Errorf("broker acked %d messages, want %d (a slow healthy batch was cut off and published again)", len(got), len(rows))
		}
	})
}

// TestPoisonMessageDeadLetters: X1 is always rejected: after MaxAttempts it
// is dead-lettered with its error; in block mode X2 waits, in skip mode it
// goes; Y flows either way; replay --dead requeues X1 (count first, nothing
// changed without --yes).
func TestPoisonMessageDeadLetters(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		for _, mode := range []string{"block", "skip"} {
			t.Run(mode, func(t *testing.T) {
				d := openDB(t, dialect)
				rows := d.insert(t,
					row{AggregateType: "t", AggregateID: "X", Payload: `{"n":1}`},
					row{AggregateType: "t", AggregateID: "Y", Payload: `{"n":1}`},
					row{AggregateType: "t", AggregateID: "X", Payload: `{"n":2}`},
					row{AggregateType: "t", AggregateID: "Y", Payload: `{"n":2}`},
				)
				x1, x2 := rows[0].ID, rows[2].ID
				poison := true
				rec := &recorder{}
				rec.decide = func(m *Msg, call int) error {
					if m.ID == x1 && poison {
						return errors.New("message too large (test)")
					}
					return nil
				}
				o := defaultFake()
				o.OnDeadLetter = mode
				stop := runFake(t, c, d, rec, o)
				eventually(t, 30*time.Second, "X1 dead-lettered", func() bool { return d.state(t, x1).dead })
				if s := d.state(t, x1); s.attempts != 3 || !strings.Contains(s.lastError, "message too large") || s.published {
					t.Fatalf("dead letter X1: %+v", s)
				}
				y3 := d.insert(t, row{AggregateType: "t", AggregateID: "Y", Payload: `{"n":3}`})[0]
				eventually(t, 30*time.Second, "Y flows", func() bool { return d.state(t, y3.ID).published })
				time.Sleep(150 * time.Millisecond)
				if got := d.state(t, x2).published; got != (mode == "skip") {
					t.Fatalf("mode %s: X2 published = %v", mode, got)
				}
				if err := stop(); err != nil {
					t.Fatal(err)
				}

				code, out := runCLI(t, c, "replay", "--database-url", d.url, "--dead")
				if code != 0 || !strings.Contains(out, "1 messages match") || !strings.Contains(out, "nothing changed") {
					t.Fatalf("replay dry run: exit %d\n%s", code, out)
				}
				if !d.state(t, x1).dead {
					t.Fatal("replay without --yes changed the row")
				}
				code, out = runCLI(t, c, "replay", "--database-url", d.url, "--dead", "--yes")
				if code != 0 || !strings.Contains(out, "requeued 1 messages") {
					t.Fatalf("replay --yes: exit %d\n%s", code, out)
				}
				if s := d.state(t, x1); s.dead || s.attempts != 0 || s.published {
					t.Fatalf("X1 after replay: %+v", s)
				}
				poison = false
				rec2 := &recorder{}
				runFake(t, c, d, rec2, o)
				eventually(t, 30*time.Second, "X1 and X2 published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
				if mode == "block" {
					if got := ackOrder(rec2)["X"]; strings.Join(got, ",") != x1+","+x2 {
						t.Fatalf("after replay X acked %v, want X1 then X2", got)
					}
				}
			})
		}
	})
}

// TestShutdown: on stop the relay finishes the batch in flight (marked) or,
// past the shutdown timeout, abandons it (rolled back: unmarked, no attempt
// used).
func TestShutdown(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		for _, finish := range []bool{true, false} {
			t.Run(fmt.Sprint("finish=", finish), func(t *testing.T) {
				d := openDB(t, dialect)
				d.insert(t, sequence("t", aggregates("s", 2), 6)...)
				rec := &recorder{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
				o := defaultFake()
				o.ShutdownTimeout = 300 * time.Millisecond
				if finish {
					o.ShutdownTimeout = 20 * time.Second
				}
				stop := runFake(t, c, d, rec, o)
				<-rec.entered
				stopped := make(chan error, 1)
				go func() { stopped <- stop() }()
				if finish {
					time.Sleep(100 * time.Millisecond)
					close(rec.gate)
				}
				select {
				case err := <-stopped:
					if err != nil {
						t.Fatal(err)
					}
				case <-time.After(25 * time.Second):
					t.Fatal("relay did not stop")
				}
				published, attempted := d.count(t, "published_at IS NOT NULL"), d.count(t, "attempts > 0")
				if finish && published != 6 {
					t.Fatalf("graceful stop: %d of 6 rows marked; the batch in flight must finish", published)
				}
				if !finish && (published != 0 || attempted != 0) {
					t.Fatalf("abandoned batch: %d rows marked, %d with attempts; want none", published, attempted)
				}
			})
		}
	})
}

// TestLeaderModeTwoRelays: two relays, rapid events on one hot aggregate
// and a few others: one relay at a time holds the lock, and JetStream
// receives every aggregate in creation order.
func TestLeaderModeTwoRelays(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		e := newJetStream(t)
		subject := e.prefix + ".hot"
		for i := 0; i < 2; i++ {
			startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--batch-size", "25", "--log-level", "info")...)
		}
		aggs := append(aggregates("cold", 4), "hot", "hot", "hot", "hot")
		rows := sequence(subject, aggs, 400)
		for i := 0; i < len(rows); i += 50 {
			d.insert(t, rows[i:i+50]...)
			time.Sleep(20 * time.Millisecond)
		}
		eventually(t, 60*time.Second, "every row published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
		var got []struct{ agg, body string }
		for _, m := range e.messages(t) {
			got = append(got, struct{ agg, body string }{m.Header.Get("aggregate-id"), string(m.Data)})
		}
		if len(got) != len(rows) {
			t.Fatalf("stream has %d messages, want %d", len(got), len(rows))
		}
		last := checkOrder(t, got)
		hot := 0
		for _, r := range rows {
			if r.AggregateID == "hot" {
				hot++
			}
		}
		if last["hot"] != hot || hot < 100 {
			t.Fatalf("hot aggregate: last message %d, want %d", last["hot"], hot)
		}
	})
}

// TestBatchRejectionRetriesAlone: a broker that refuses a whole publish
// call because of one message in it (a Kafka produce batch over the topic's
// max message size) must not cost the other messages of the call attempts:
// the relay publishes each rejected message again alone, and only the one
// still rejected alone uses attempts and is dead-lettered; its successor
// waits (block), the others flow in order.
func TestBatchRejectionRetriesAlone(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		var rows []row
		for n := 1; n <= 2; n++ {
			for _, agg := range []string{"P", "A", "B", "C"} {
				rows = append(rows, row{AggregateType: "t", AggregateID: agg, Payload: fmt.Sprintf(`{"agg": %q, "n": %d}`, agg, n)})
			}
		}
		rows = d.insert(t, rows...)
		p1, p2 := rows[0].ID, rows[4].ID
		rec := &recorder{}
		var multi int // calls with more than one message (under rec.mu)
		rec.batch = func(msgs []*Msg) error {
			if len(msgs) > 1 {
				multi++
			}
			for _, m := range msgs {
				if m.ID == p1 {
					return errors.New("MESSAGE_TOO_LARGE: batch refused (test)")
				}
			}
			return nil
		}
		runFake(t, c, d, rec, defaultFake())
		eventually(t, 30*time.Second, "P1 dead-lettered", func() bool { return d.state(t, p1).dead })
		eventually(t, 30*time.Second, "A, B, C published", func() bool {
			return d.count(t, "aggregate_id <> 'P' AND published_at IS NULL") == 0
		})
		time.Sleep(150 * time.Millisecond)
		if s := d.state(t, p1); s.attempts != 3 || !strings.Contains(s.lastError, "MESSAGE_TOO_LARGE") {
			t.Fatalf("dead letter P1: %+v, want 3 attempts and the broker's error", s)
		}
		for _, r := range rows[1:] {
			if r.AggregateID == "P" {
				continue
			}
			if s := d.state(t, r.ID); s.attempts != 0 || s.dead || s.lastError != "" {
				t.Fatalf("%s (refused only together with P1): %+v, want no attempt used", r.Payload, s)
			}
		}
		if s := d.state(t, p2); s.published || s.attempts != 0 {
			t.Fatalf("P2 behind the dead letter: %+v, want it waiting untouched", s)
		}
		var payloads []struct{ agg, body string }
		rec.mu.Lock()
		if multi == 0 {
			rec.mu.Unlock()
			t.Fatal("the relay never published more than one message per call: the test did not batch")
		}
		for _, m := range rec.acked {
			payloads = append(payloads, struct{ agg, body string }{m.AggregateID, string(m.Payload)})
		}
		rec.mu.Unlock()
		if last := checkOrder(t, payloads); last["A"] != 2 || last["B"] != 2 || last["C"] != 2 || last["P"] != 0 {
			t.Fatalf("acked per aggregate up to %v, want A, B, C 2 and P none", last)
		}
	})
}

// codeNetError is an error type like kafka-go's kafka.Error: a broker's
// error code that implements net.Error.
type codeNetError int

func (e codeNetError) Error() string   { return fmt.Sprintf("[%d] broker error code (test)", int(e)) }
func (e codeNetError) Timeout() bool   { return false }
func (e codeNetError) Temporary() bool { return true }

// TestIsUnavailable: connection-level errors are "unavailable" (no attempt
// used); a broker's answer is not, even when its error type implements
// net.Error (kafka-go's kafka.Error does, for every code).
func TestIsUnavailable(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("message too large (test)"), false},
		{codeNetError(10), false},
		{fmt.Errorf("write: %w", codeNetError(2)), false},
		{kafka.MessageSizeTooLarge, false},
		{kafka.InvalidMessage, false},
		{fmt.Errorf("produce: %w", kafka.TopicAuthorizationFailed), false},
		{kafka.RequestTimedOut, true}, // Timeout() is true
		{dial, true},
		{fmt.Errorf("connect: %w", dial), true},
		{fmt.Errorf("read: %w", io.EOF), true},
		{syscall.ECONNRESET, true},
		{context.DeadlineExceeded, true},
		{os.ErrDeadlineExceeded, true},
	} {
		for _, ident := range []string{"pg_jetstream", "pg_kafkago"} {
			if got := get(t, ident).isUnavailable(tc.err); got != tc.want {
				t.Errorf("%s.IsUnavailable(%T %v) = %v, want %v", ident, tc.err, tc.err, got, tc.want)
			}
		}
	}
}

// TestClaimDoesNotWaitForOpenInserts: a producer's transaction that has
// inserted a row and not yet committed must not hold up the claim of the
// rows committed before it. On MariaDB the claim's locking read by primary
// key, left to the optimizer, walked the (published_at, seq) index over
// every unpublished row and waited for each uncommitted insert (more than
// 200 keys in the IN list turn off index dives): under load the relay stood
// still for 20 s while producers kept inserting.
func TestClaimDoesNotWaitForOpenInserts(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		const committed = 300
		d.insert(t, sequence("things", aggregates("a", 10), committed)...)
		tx, err := d.sql.Begin()
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if _, err := tx.Exec(d.q(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, headers) VALUES ($1, 'things', 'late', 'thing.happened', '{}', '{}')`), newID()); err != nil {
			t.Fatalf("open insert: %v", err)
		}
		rec := &recorder{}
		o := defaultFake()
		o.BatchSize = 500
		runFake(t, c, d, rec, o)
		// Within innodb_lock_wait_timeout (50 s by default): a claim that
		// waits for the open transaction publishes nothing until it ends.
		eventually(t, 20*time.Second, "the committed rows published while an insert is open", func() bool {
			return d.count(t, "published_at IS NOT NULL") == committed
		})
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		eventually(t, 30*time.Second, "the late row published after its commit", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	})
}
