package relaytest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestStatusAndMetrics: status prints the counts computed in SQL; status
// --serve exports them (no relay, no leadership) with the oldest pending
// age, which is what the age alert watches when every relay is stopped.
func TestStatusAndMetrics(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		// a: old, b: dead, c: in backoff, d: fresh (one row per aggregate).
		rows := d.insert(t,
			row{AggregateType: "t", AggregateID: "a", Payload: `{}`}, row{AggregateType: "t", AggregateID: "b", Payload: `{}`},
			row{AggregateType: "t", AggregateID: "c", Payload: `{}`}, row{AggregateType: "t", AggregateID: "d", Payload: `{}`})
		d.exec(t, `UPDATE outbox SET created_at = created_at - INTERVAL '5' MINUTE WHERE id = $1`, rows[0].ID)
		d.exec(t, `UPDATE outbox SET dead_at = created_at, next_attempt_at = created_at, attempts = 3 WHERE id = $1`, rows[1].ID)
		d.exec(t, `UPDATE outbox SET next_attempt_at = created_at + INTERVAL '1' HOUR, attempts = 1 WHERE id = $1`, rows[2].ID)

		code, out := runCLI(t, c, "status", "--database-url", d.url, "--json")
		if code != 0 {
			t.Fatalf("status: exit %d\n%s", code, out)
		}
		var st struct {
			Pending     int64   `json:"pending"`
			Retrying    int64   `json:"retrying"`
			DeadLetters int64   `json:"dead_letters"`
			Age         float64 `json:"oldest_pending_age_seconds"`
		}
		if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &st); err != nil {
			t.Fatalf("status --json: %v\n%s", err, out)
		}
		if st.Pending != 3 || st.Retrying != 1 || st.DeadLetters != 1 || st.Age < 299 || st.Age > 400 {
			t.Fatalf("status = %+v, want 3 pending, 1 retrying, 1 dead letter, oldest ~300s", st)
		}

		// status --serve on a free port; the log says where.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var buf syncBuffer
		done := make(chan int, 1)
		go func() {
			done <- c.main(ctx, []string{"status", "--database-url", d.url, "--serve", "127.0.0.1:0"}, &buf, &buf)
		}()
		addr := waitAddr(t, &buf)
		metrics := httpGet(t, "http://"+addr+"/metrics")
		for name, check := range map[string]func(float64) bool{
			"outbox_pending_messages":           func(v float64) bool { return v == 3 },
			"outbox_dead_letters":               func(v float64) bool { return v == 1 },
			"outbox_retrying_messages":          func(v float64) bool { return v == 1 },
			"outbox_oldest_pending_age_seconds": func(v float64) bool { return v >= 299 },
		} {
			v, ok := metricValue(metrics, name)
			if !ok || !check(v) {
				t.Fatalf("%s = %v (found %v)\n%s", name, v, ok, metrics)
			}
		}
		if h := httpGet(t, "http://"+addr+"/healthz"); !strings.Contains(h, "ok") {
			t.Fatalf("/healthz: %q", h)
		}
		cancel()
		if code := <-done; code != 0 {
			t.Fatalf("status --serve exit %d\n%s", code, buf.String())
		}

		// The relay's own metrics.
		e := newJetStream(t)
		d.exec(t, `UPDATE outbox SET aggregate_type = $1`, e.prefix+".t")
		r := startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--metrics-addr", "127.0.0.1:0")...)
		addr = waitAddr(t, r.out)
		eventually(t, 30*time.Second, "relay published the two due rows", func() bool {
			v, _ := metricValue(httpGet(t, "http://"+addr+"/metrics"), "outbox_relay_published_total")
			return v == 2
		})
		m := httpGet(t, "http://"+addr+"/metrics")
		if v, ok := metricValue(m, "outbox_relay_leader"); !ok || v != 1 {
			t.Fatalf("outbox_relay_leader = %v\n%s", v, m)
		}
		if v, ok := metricValue(m, "outbox_pending_messages"); !ok || v != 1 {
			t.Fatalf("relay's outbox_pending_messages = %v (the row in backoff)", v)
		}
		if !strings.Contains(m, "outbox_relay_batch_duration_seconds_count") {
			t.Fatalf("no batch duration histogram:\n%s", m)
		}
	})
}

var addrRE = regexp.MustCompile(`serving metrics.*addr=([0-9.]+:[0-9]+)`)

func waitAddr(t *testing.T, out *syncBuffer) string {
	t.Helper()
	var addr string
	eventually(t, 20*time.Second, "metrics server address in the log", func() bool {
		m := addrRE.FindStringSubmatch(out.String())
		if m != nil {
			addr = m[1]
		}
		return m != nil
	})
	return addr
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v\n%s", url, resp.StatusCode, err, b)
	}
	return string(b)
}

// metricValue finds the first sample of name in a text exposition.
func metricValue(exposition, name string) (float64, bool) {
	sc := bufio.NewScanner(strings.NewReader(exposition))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, name+"{") && !strings.HasPrefix(line, name+" ") {
			continue
		}
		f := strings.Fields(line)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		return v, err == nil
	}
	return 0, false
}

// TestCleanup deletes only rows published before the retention (in batches)
// and old inbox rows; pending and dead rows stay.
func TestCleanup(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t, sequence("t", aggregates("c", 3), 10)...)
		ago := func(id string, col, interval string) {
			d.exec(t, `UPDATE outbox SET `+col+` = CURRENT_TIMESTAMP - INTERVAL `+interval+` WHERE id = $1`, id)
		}
		for _, r := range rows[:5] {
			ago(r.ID, "published_at", "'8' DAY")
		}
		ago(rows[5].ID, "published_at", "'1' HOUR")
		ago(rows[6].ID, "dead_at", "'30' DAY")
		ago(rows[7].ID, "created_at", "'30' DAY") // old but pending
		for i := 0; i < 6; i++ {
			received := "CURRENT_TIMESTAMP - INTERVAL '10' DAY"
			if i == 5 {
				received = "CURRENT_TIMESTAMP"
			}
			d.exec(t, `INSERT INTO inbox (consumer, message_id, received_at) VALUES ($1, $2, `+received+`)`, "billing", newID())
		}
		code, out := runCLI(t, c, "cleanup", "--database-url", d.url, "--retention", "168h", "--inbox-retention", "168h", "--batch-size", "2", "--json")
		if code != 0 {
			t.Fatalf("cleanup: exit %d\n%s", code, out)
		}
		var res struct {
			OutboxDeleted int64 `json:"outbox_deleted"`
			InboxDeleted  int64 `json:"inbox_deleted"`
		}
		if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &res); err != nil {
			t.Fatalf("cleanup --json: %v\n%s", err, out)
		}
		if res.OutboxDeleted != 5 || res.InboxDeleted != 5 {
			t.Fatalf("cleanup deleted %+v, want 5 outbox and 5 inbox rows", res)
		}
		if n := d.count(t, "1=1"); n != 5 {
			t.Fatalf("%d outbox rows left, want 5 (recent, dead, pending)", n)
		}
		for _, r := range rows[5:] {
			d.state(t, r.ID) // fails if deleted
		}
		code, out = runCLI(t, c, "cleanup", "--database-url", d.url)
		if code != 0 || !strings.Contains(out, "deleted 0 published outbox rows") {
			t.Fatalf("second cleanup: exit %d\n%s", code, out)
		}
	})
}

// TestReplayFilters: each filter selects what it says; without --yes nothing
// changes; pending rows are never selected.
func TestReplayFilters(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t,
			row{AggregateType: "orders", AggregateID: "1", EventType: "order.paid", Payload: `{}`},
			row{AggregateType: "orders", AggregateID: "2", EventType: "order.paid", Payload: `{}`},
			row{AggregateType: "orders", AggregateID: "1", EventType: "order.shipped", Payload: `{}`},
			row{AggregateType: "users", AggregateID: "1", EventType: "user.created", Payload: `{}`},
			row{AggregateType: "orders", AggregateID: "3", EventType: "order.paid", Payload: `{}`}, // stays pending
		)
		d.exec(t, `UPDATE outbox SET published_at = CURRENT_TIMESTAMP WHERE id <> $1`, rows[4].ID)
		d.exec(t, `UPDATE outbox SET created_at = CURRENT_TIMESTAMP - INTERVAL '2' DAY WHERE id = $1`, rows[3].ID)
		for _, tc := range []struct {
			args []string
			want int
		}{
			{[]string{"--aggregate-type", "orders"}, 3},
			{[]string{"--aggregate-type", "orders", "--aggregate-id", "1"}, 2},
			{[]string{"--event-type", "order.paid"}, 2},
			{[]string{"--until", "24h"}, 1},
			{[]string{"--since", "24h"}, 3},
			{[]string{"--since", time.Now().Add(-time.Hour).UTC().Format(time.RFC3339), "--aggregate-type", "users"}, 0},
			{[]string{"--dead"}, 0},
		} {
			code, out := runCLI(t, c, append([]string{"replay", "--database-url", d.url}, tc.args...)...)
			if code != 0 || !strings.Contains(out, fmt.Sprintf("%d messages match", tc.want)) {
				t.Fatalf("replay %v: exit %d, want %d matches\n%s", tc.args, code, tc.want, out)
			}
		}
		if n := d.count(t, "published_at IS NULL"); n != 1 {
			t.Fatalf("dry runs changed rows: %d unpublished", n)
		}
		code, out := runCLI(t, c, "replay", "--database-url", d.url, "--aggregate-type", "orders", "--aggregate-id", "1", "--yes")
		if code != 0 || !strings.Contains(out, "requeued 2 messages") {
			t.Fatalf("replay --yes: exit %d\n%s", code, out)
		}
		if !(!d.state(t, rows[0].ID).published && !d.state(t, rows[2].ID).published && d.state(t, rows[1].ID).published) {
			t.Fatal("replay --yes requeued the wrong rows")
		}
	})
}

// TestUsageErrors: bad input is a clear message and exit 2, nothing changed.
func TestUsageErrors(t *testing.T) {
	c := get(t, "pg_jetstream")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"launch"}, `unknown command "launch"`},
		{[]string{"run", "--database-url", "postgres://x", "--on-dead-letter", "drop"}, `on-dead-letter "drop"`},
		{[]string{"run", "--database-url", "postgres://x", "--shards", "-1"}, "shards -1"},
		{[]string{"run", "--database-url", "postgres://x", "--bogus"}, "flag provided but not defined"},
		{[]string{"replay", "--database-url", "postgres://x"}, "at least one filter"},
		{[]string{"replay", "--database-url", "postgres://x", "--since", "yesterday"}, "neither an RFC 3339 time nor a duration"},
		{[]string{"cleanup", "--database-url", "postgres://x", "--retention", "-1h"}, "must be positive"},
		{[]string{"status", "--database-url", "postgres://x", "--pooler", "odyssey"}, `--pooler "odyssey"`},
	} {
		code, out := runCLI(t, c, tc.args...)
		if code != 2 || !strings.Contains(out, tc.want) {
			t.Fatalf("%v: exit %d, want 2 and %q\n%s", tc.args, code, tc.want, out)
		}
	}
	t.Setenv("DATABASE_URL", "")
	if code, out := runCLI(t, c, "status"); code != 2 || !strings.Contains(out, "no database") {
		t.Fatalf("status without a database: exit %d\n%s", code, out)
	}
	t.Setenv("OUTBOX_BATCH_SIZE", "lots")
	if code, out := runCLI(t, c, "run", "--database-url", "postgres://x"); code != 2 || !strings.Contains(out, "OUTBOX_BATCH_SIZE") {
		t.Fatalf("bad env var: exit %d\n%s", code, out)
	}
}

// TestNotify: with polling set to an hour, a row is published promptly only
// if the trigger's NOTIFY wakes the relay.
func TestNotify(t *testing.T) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	e := newJetStream(t)
	r := startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--poll-interval", "1h")...)
	eventually(t, 20*time.Second, "self-test passed", func() bool { return strings.Contains(r.out.String(), "self-test passed") })
	time.Sleep(100 * time.Millisecond)
	rows := d.insert(t, row{AggregateType: e.prefix + ".n", AggregateID: "1", Payload: `{}`})
	eventually(t, 10*time.Second, "row published after NOTIFY", func() bool { return d.state(t, rows[0].ID).published })
}

// TestNotifyOnlyWhileIdle: the insert trigger (schema 4) notifies only
// while a relay idles, holding the idle lock. With polling set to an hour,
// bursts of concurrent producers (transactions of three inserts, pauses
// between the bursts, so the relay goes from idle to busy and back) are
// all published within seconds, each row soon after its commit: rows that
// skipped the NOTIFY are found by the relay's claims while it is busy or by
// its claim after the lock is granted. Once idle, the relay holds the lock.
func TestNotifyOnlyWhileIdle(t *testing.T) {
	for _, shards := range []string{"1", "2"} {
		t.Run("shards="+shards, func(t *testing.T) { testNotifyOnlyWhileIdle(t, shards) })
	}
}

func testNotifyOnlyWhileIdle(t *testing.T, shards string) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	e := newJetStream(t)
	r := startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--poll-interval", "1h", "--shards", shards)...)
	eventually(t, 20*time.Second, "self-test passed", func() bool { return strings.Contains(r.out.String(), "self-test passed") })
	class := int64(uint32(crc32.ChecksumIEEE([]byte("outboxify.relay.idle.outbox"))))
	idleLockHeld := func() bool {
		var n int
		if err := d.sql.QueryRow(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2
			AND classid::int8 = $1 AND objid = 0 AND mode = 'ExclusiveLock' AND granted
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, class).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	eventually(t, 10*time.Second, "the idle relay to hold the idle lock", idleLockHeld)

	const producers, txs, perTx = 8, 5, 3
	total := 0
	for burst := range 6 {
		var wg sync.WaitGroup
		errs := make(chan error, producers)
		for p := range producers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range txs {
					tx, err := d.sql.Begin()
					if err != nil {
						errs <- err
						return
					}
					for k := range perTx {
						agg := fmt.Sprintf("%d-%d-%d", burst, p, (i+k)%2)
						if _, err := tx.Exec(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload) VALUES ($1, $2, $3, 'thing.happened', '{}')`,
							newID(), e.prefix+".burst", agg); err != nil {
							_ = tx.Rollback()
							errs <- err
							return
						}
					}
					if err := tx.Commit(); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("producer: %v", err)
		}
		total += producers * txs * perTx
		eventually(t, 5*time.Second, fmt.Sprintf("burst %d published", burst), func() bool {
			return d.count(t, "published_at IS NULL") == 0 && d.count(t, "published_at IS NOT NULL") == total
		})
		time.Sleep(time.Duration(50+burst*70) * time.Millisecond)
	}
	var worst float64
	if err := d.sql.QueryRow(`SELECT EXTRACT(EPOCH FROM max(published_at - created_at))::float8 FROM outbox`).Scan(&worst); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rows, longest from a transaction's start to its row's publish: %.0f ms", total, worst*1000)
	// The relay polls every second while it waits for the lock to be
	// granted; a row that waited that long was missed by the claims.
	if worst >= 0.9 {
		t.Fatalf("a row waited %.0f ms to be published", worst*1000)
	}
	eventually(t, 10*time.Second, "the relay idle again, holding the idle lock", idleLockHeld)
}

// TestIdleLockSessionLost: when the session holding the idle lock ends
// (terminated on the server), the relay says so, takes the lock again on a
// new session and still publishes a row inserted afterwards at once, with
// polling set to an hour.
func TestIdleLockSessionLost(t *testing.T) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	e := newJetStream(t)
	r := startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--poll-interval", "1h")...)
	class := int64(uint32(crc32.ChecksumIEEE([]byte("outboxify.relay.idle.outbox"))))
	holder := func() int {
		var pid int
		err := d.sql.QueryRow(`SELECT COALESCE(max(pid), 0) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2
			AND classid::int8 = $1 AND objid = 0 AND mode = 'ExclusiveLock' AND granted
			AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`, class).Scan(&pid)
		if err != nil {
			t.Fatal(err)
		}
		return pid
	}
	eventually(t, 20*time.Second, "the idle relay to hold the idle lock", func() bool { return holder() != 0 })
	old := holder()
	d.exec(t, `SELECT pg_terminate_backend($1)`, old)
	eventually(t, 10*time.Second, "the loss reported", func() bool { return strings.Contains(r.out.String(), "idle lock session lost") })
	eventually(t, 10*time.Second, "the idle lock taken again on a new session", func() bool { pid := holder(); return pid != 0 && pid != old })
	rows := d.insert(t, row{AggregateType: e.prefix + ".lost", AggregateID: "1", Payload: `{}`})
	eventually(t, 5*time.Second, "row published after the lock was taken again", func() bool { return d.state(t, rows[0].ID).published })
}

// TestPoolerSwallowsNotify: behind a proxy that drops notifications (as a
// transaction-mode pooler does), the self-test fails, the relay says so and
// polls.
func TestPoolerSwallowsNotify(t *testing.T) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	e := newJetStream(t)
	proxied := startNotifyDroppingProxy(t, d.url)
	r := startRelay(t, c, fastFlags(&testDB{url: proxied}, "--broker-url", e.url, "--poll-interval", "100ms", "--notify-selftest-timeout", "500ms")...)
	eventually(t, 20*time.Second, "self-test failure reported", func() bool { return strings.Contains(r.out.String(), "NOTIFY self-test failed") })
	rows := d.insert(t, row{AggregateType: e.prefix + ".n", AggregateID: "1", Payload: `{}`})
	eventually(t, 10*time.Second, "row published by polling", func() bool { return d.state(t, rows[0].ID).published })
}

// startNotifyDroppingProxy forwards PostgreSQL connections and drops the
// server's NotificationResponse ('A') messages. It returns the database URL
// through the proxy.
func startNotifyDroppingProxy(t *testing.T, dbURL string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	target := strings.SplitN(strings.SplitN(dbURL, "@", 2)[1], "/", 2)[0]
	var wg sync.WaitGroup
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				client.Close()
				continue
			}
			wg.Add(2)
			go func() { defer wg.Done(); _, _ = io.Copy(server, client); server.Close() }()
			go func() { defer wg.Done(); dropNotifications(client, server); client.Close() }()
		}
	}()
	return strings.Replace(dbURL, target, ln.Addr().String(), 1)
}

// dropNotifications copies backend messages from server to client except
// NotificationResponse. With sslmode=disable every backend message is a type
// byte and a length.
func dropNotifications(client io.Writer, server io.Reader) {
	r := bufio.NewReader(server)
	head := make([]byte, 5)
	for {
		if _, err := io.ReadFull(r, head); err != nil {
			return
		}
		n := int(head[1])<<24 | int(head[2])<<16 | int(head[3])<<8 | int(head[4])
		body := make([]byte, n-4)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		if head[0] == 'A' {
			continue
		}
		if _, err := client.Write(append(append([]byte(nil), head...), body...)); err != nil {
			return
		}
	}
}

// TestKillBetweenPublishAndMark: a real relay process is stopped (failpoint)
// after JetStream acked a batch and before the rows were marked, then
// SIGKILLed. The restarted relay publishes the batch again; JetStream's
// Nats-Msg-Id dedupe keeps one copy of each, and every row ends up marked.
func TestKillBetweenPublishAndMark(t *testing.T) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	e := newJetStream(t)
	rows := d.insert(t, sequence(e.prefix+".k", aggregates("k", 4), 40)...)
	p := startProcess(t, c, []string{"OUTBOX_RELAY_FAILPOINT=after-publish:pause"}, fastFlags(d, "--broker-url", e.url)...)
	eventually(t, 60*time.Second, "failpoint reached", func() bool { return strings.Contains(p.out.String(), "failpoint after-publish reached") })
	if got := len(e.messages(t)); got != len(rows) {
		t.Fatalf("broker has %d messages at the failpoint, want %d", got, len(rows))
	}
	if n := d.count(t, "published_at IS NOT NULL"); n != 0 {
		t.Fatalf("%d rows marked before the kill", n)
	}
	p.kill(t)
	if n := d.count(t, "published_at IS NOT NULL"); n != 0 {
		t.Fatalf("%d rows marked after SIGKILL", n)
	}
	startProcess(t, c, nil, fastFlags(d, "--broker-url", e.url)...)
	eventually(t, 60*time.Second, "all rows marked after restart", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	msgs := e.messages(t)
	var got []struct{ agg, body string }
	for _, m := range msgs {
		got = append(got, struct{ agg, body string }{m.Header.Get("aggregate-id"), string(m.Data)})
	}
	checkOrder(t, got)
	t.Logf("counts: rows %d, stream messages %d (republished batch deduplicated by Nats-Msg-Id), lost 0", len(rows), len(msgs))
	if len(msgs) != len(rows) {
		t.Fatalf("stream has %d messages, want %d", len(msgs), len(rows))
	}

	// The exit action ends the process with status 3, nothing marked.
	d2 := openDB(t, "postgres")
	d2.insert(t, row{AggregateType: e.prefix + ".x", AggregateID: "x", Payload: `{}`})
	p2 := startProcess(t, c, []string{"OUTBOX_RELAY_FAILPOINT=after-publish:exit"}, fastFlags(d2, "--broker-url", e.url)...)
	err := p2.cmd.Wait()
	ws, _ := p2.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if err == nil || ws.ExitStatus() != 3 || d2.count(t, "published_at IS NOT NULL") != 0 {
		t.Fatalf("failpoint exit: %v (status %d), marked %d", err, ws.ExitStatus(), d2.count(t, "published_at IS NOT NULL"))
	}
}

// TestShardsWithNegativeHashKeys: keys whose hashtextextended is negative
// (plain hash % N would give a negative shard) are relayed by two relays in
// shard mode, in order; both shards are worked.
func TestShardsWithNegativeHashKeys(t *testing.T) {
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		e := newJetStream(t)
		var keys []string
		if dialect == "postgres" {
			var neg, pos int
			for i := 0; len(keys) < 12 && i < 1000; i++ {
				k := fmt.Sprintf("acct-%d", i)
				var h int64
				if err := d.sql.QueryRow(`SELECT hashtextextended($1, 0)`, k).Scan(&h); err != nil {
					t.Fatal(err)
				}
				if h < 0 && neg < 6 && h%2 != 0 {
					keys, neg = append(keys, k), neg+1 // naive h % 2 would be -1
				} else if h >= 0 && pos < 6 {
					keys, pos = append(keys, k), pos+1
				}
			}
			if neg < 6 {
				t.Fatalf("found only %d keys with a negative hash", neg)
			}
		} else {
			keys = aggregates("acct", 12)
		}
		rows := sequence(e.prefix+".s", keys, 240)
		for i := 0; i < 2; i++ {
			startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--shards", "2", "--batch-size", "20", "--log-level", "info")...)
		}
		d.insert(t, rows...)
		eventually(t, 60*time.Second, "all rows published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
		shardExpr := map[string]string{"postgres": "(hashtextextended(aggregate_id, 0) & 2147483647) % 2", "mysql": "CRC32(aggregate_id) % 2"}[dialect]
		var shards int
		if err := d.sql.QueryRow(`SELECT count(DISTINCT ` + shardExpr + `) FROM outbox WHERE ` + shardExpr + ` IN (0, 1)`).Scan(&shards); err != nil {
			t.Fatal(err)
		}
		if shards != 2 {
			t.Fatalf("keys cover %d shards, want 2", shards)
		}
		var got []struct{ agg, body string }
		for _, m := range e.messages(t) {
			got = append(got, struct{ agg, body string }{m.Header.Get("aggregate-id"), string(m.Data)})
		}
		if len(got) != len(rows) {
			t.Fatalf("stream has %d messages, want %d", len(got), len(rows))
		}
		checkOrder(t, got)
	})
}

// TestScheduledCleanup: run --cleanup-every deletes old published rows while
// relaying.
func TestScheduledCleanup(t *testing.T) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	e := newJetStream(t)
	rows := d.insert(t, sequence(e.prefix+".c", aggregates("c", 2), 6)...)
	d.exec(t, `UPDATE outbox SET published_at = now() - INTERVAL '2' DAY WHERE id = $1 OR id = $2`, rows[0].ID, rows[1].ID)
	r := startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--cleanup-every", "100ms", "--retention", "24h", "--log-level", "info")...)
	eventually(t, 20*time.Second, "old published rows deleted", func() bool { return d.count(t, "1=1") == 4 })
	eventually(t, 20*time.Second, "the rest published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	// The line follows the delete (after the blocked-row release): wait for it.
	eventually(t, 10*time.Second, "the cleanup log line", func() bool {
		return strings.Contains(r.out.String(), "scheduled outbox cleanup")
	})
}

// TestRecoversFromTerminatedConnections: pg_terminate_backend on every
// relay connection (batches and LISTEN) mid-run; the relay reconnects by
// itself and everything is published, in order.
func TestRecoversFromTerminatedConnections(t *testing.T) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	e := newJetStream(t)
	rows := sequence(e.prefix+".r", aggregates("r", 5), 200)
	r := startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--batch-size", "10", "--log-level", "info")...)
	eventually(t, 20*time.Second, "self-test passed", func() bool { return strings.Contains(r.out.String(), "self-test passed") })
	d.insert(t, rows[:100]...)
	var killed int
	if err := d.sql.QueryRow(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&killed); err != nil {
		t.Fatal(err)
	}
	if killed == 0 {
		t.Fatal("no relay connection to terminate")
	}
	d.insert(t, rows[100:]...)
	eventually(t, 60*time.Second, "all rows published after the connections were terminated", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	var got []struct{ agg, body string }
	for _, m := range e.messages(t) {
		got = append(got, struct{ agg, body string }{m.Header.Get("aggregate-id"), string(m.Data)})
	}
	checkOrder(t, got)
	t.Logf("counts: rows %d, terminated connections %d, stream messages %d, lost 0", len(rows), killed, len(got))
	if len(got) != len(rows) {
		t.Fatalf("stream has %d messages, want %d", len(got), len(rows))
	}
	eventually(t, 30*time.Second, "LISTEN restored", func() bool { return strings.Contains(r.out.String(), "LISTEN connection restored") })
}

// TestBrokerDownAndBack runs a private nats-server (JetStream, file store)
// the test owns: the relay starts while it is down, relays once it is up,
// rides out a restart, and never uses up an attempt or loses a message.
func TestBrokerDownAndBack(t *testing.T) {
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		for _, p := range []string{"/usr/sbin/nats-server", "/usr/bin/nats-server"} {
			if _, serr := os.Stat(p); serr == nil {
				bin, err = p, nil
			}
		}
	}
	if err != nil {
		t.Skip("nats-server binary not found")
	}
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	addr := freeAddr(t)
	host, port, _ := net.SplitHostPort(addr)
	store := t.TempDir()
	var srv *exec.Cmd
	startServer := func() {
		srv = exec.Command(bin, "-a", host, "-p", port, "-js", "-sd", store)
		if err := srv.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = srv.Process.Kill(); _ = srv.Wait() })
		waitTCP(t, addr, "nats-server")
	}
	stopServer := func() { _ = srv.Process.Kill(); _ = srv.Wait() }
	url := "nats://" + addr
	subject := randName("down") + ".orders"
	rows := sequence(subject, aggregates("d", 4), 120)

	// Down at start: the relay runs, nothing is marked, no attempt is used.
	startRelay(t, c, fastFlags(d, "--broker-url", url, "--publish-timeout", "2s", "--log-level", "info")...)
	d.insert(t, rows[:40]...)
	time.Sleep(1500 * time.Millisecond)
	if n := d.count(t, "published_at IS NOT NULL OR attempts > 0 OR dead_at IS NOT NULL"); n != 0 {
		t.Fatalf("%d rows changed while the broker was down", n)
	}
	startServer()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	stream := strings.ToUpper(randName("DOWN"))
	ctx := context.Background()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: stream, Subjects: []string{subject}, Duplicates: 10 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	nc.Close()
	eventually(t, 60*time.Second, "first rows published once the broker is up", func() bool { return d.count(t, "published_at IS NULL") == 0 })

	// Down again mid-run, then back (same store).
	stopServer()
	d.insert(t, rows[40:]...)
	time.Sleep(1500 * time.Millisecond)
	startServer()
	eventually(t, 60*time.Second, "all rows published after the restart", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	if n := d.count(t, "attempts > 0 OR dead_at IS NOT NULL"); n != 0 {
		t.Fatalf("%d rows used attempts during broker outages", n)
	}
	nc, err = nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ = jetstream.New(nc)
	e := &jsEnv{js: js, stream: stream}
	var got []struct{ agg, body string }
	for _, m := range e.messages(t) {
		got = append(got, struct{ agg, body string }{m.Header.Get("aggregate-id"), string(m.Data)})
	}
	checkOrder(t, got)
	t.Logf("counts: rows %d, stream messages %d, attempts used 0, lost 0", len(rows), len(got))
	if len(got) != len(rows) {
		t.Fatalf("stream has %d messages, want %d", len(got), len(rows))
	}
}

// TestReplayInsideDuplicateWindow: a replay of messages JetStream saw within
// its duplicate window is acked as duplicates, not delivered again: the
// relay counts them (outbox_relay_duplicate_acks_total) and replay says so,
// so the replay is not silently a no-op.
func TestReplayInsideDuplicateWindow(t *testing.T) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	e := newJetStream(t)
	subject := e.prefix + ".dup"
	d.insert(t, row{AggregateType: subject, AggregateID: "1", Payload: `{"n":1}`},
		row{AggregateType: subject, AggregateID: "2", Payload: `{"n":1}`})
	r := startRelay(t, c, fastFlags(d, "--broker-url", e.url, "--metrics-addr", "127.0.0.1:0")...)
	addr := waitAddr(t, r.out)
	eventually(t, 30*time.Second, "both rows published", func() bool { return d.count(t, "published_at IS NULL") == 0 })

	code, out := runCLI(t, c, "replay", "--database-url", d.url, "--aggregate-type", subject, "--yes")
	if code != 0 || !strings.Contains(out, "requeued 2 messages") || !strings.Contains(out, "duplicate window") {
		t.Fatalf("replay: exit %d\n%s", code, out)
	}
	var dup float64
	var found bool
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		dup, found = metricValue(httpGet(t, "http://"+addr+"/metrics"), "outbox_relay_duplicate_acks_total")
		if dup == 2 && d.count(t, "published_at IS NULL") == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if dup != 2 {
		t.Fatalf("outbox_relay_duplicate_acks_total = %v (found %v), want 2; unpublished %d", dup, found, d.count(t, "published_at IS NULL"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := e.js.Stream(ctx, e.stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 2 {
		t.Fatalf("stream holds %d messages, want 2 (the replay was deduplicated)", info.State.Msgs)
	}
}
