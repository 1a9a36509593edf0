package relaytest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// overlapBroker is a fake broker for the pipeline tests: every Publish call
// takes a random few milliseconds outside any lock (so that batches in
// flight overlap and finish in any order), some messages are rejected on
// their first attempt, and it records, per relay, how many calls were in
// flight at once and whether two relays ever published at the same time.
type overlapBroker struct {
	mu       sync.Mutex
	acked    []struct{ agg, body string }
	inFlight [2]atomic.Int32 // per relay
	maxSelf  atomic.Int32    // most calls in flight at once within one relay
	together atomic.Int32    // calls that began while the other relay had one in flight
	rejected atomic.Int32
}

func (b *overlapBroker) publisher(relay int) publishFunc {
	return func(ctx context.Context, msgs []*Msg) []error {
		n := b.inFlight[relay].Add(1)
		defer b.inFlight[relay].Add(-1)
		for {
			m := b.maxSelf.Load()
			if n <= m || b.maxSelf.CompareAndSwap(m, n) {
				break
			}
		}
		if b.inFlight[1-relay].Load() > 0 {
			b.together.Add(1)
		}
		time.Sleep(time.Duration(1+rand.IntN(6)) * time.Millisecond)
		errs := make([]error, len(msgs))
		b.mu.Lock()
		defer b.mu.Unlock()
		for i, m := range msgs {
			// About one message in twelve is refused on its first attempt:
			// its aggregate's later messages must wait for its retry.
			if m.Attempts == 0 && crc32.ChecksumIEEE([]byte(m.ID))%12 == 0 {
				errs[i] = errors.New("refused once (test)")
				b.rejected.Add(1)
				continue
			}
			b.acked = append(b.acked, struct{ agg, body string }{m.AggregateID, string(m.Payload)})
		}
		return errs
	}
}

func pipelineOptions(pipeline int) fakeOptions {
	o := defaultFake()
	o.BatchSize = 15
	o.Pipeline = pipeline
	o.MaxAttempts = 5
	o.RetryBase, o.RetryMax = 20*time.Millisecond, 40*time.Millisecond
	return o
}

// runRelay runs c's relay in-process with publish until the test ends.
func runRelay(t *testing.T, c relayCase, d *testDB, publish publishFunc, o fakeOptions) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.runFake(ctx, d.url, publish, o) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("relay: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("relay did not stop within 30s")
		}
	})
}

func (b *overlapBroker) checkAll(t *testing.T, rows []row) {
	t.Helper()
	b.mu.Lock()
	got := append([]struct{ agg, body string }(nil), b.acked...)
	b.mu.Unlock()
	last := checkOrder(t, got)
	want := map[string]int{}
	for _, r := range rows {
		var v struct{ N int }
		if err := json.Unmarshal([]byte(r.Payload), &v); err != nil {
			t.Fatal(err)
		}
		want[r.AggregateID] = max(want[r.AggregateID], v.N)
	}
	for agg, n := range want {
		if last[agg] != n {
			t.Fatalf("aggregate %s: last message acked %d, want %d", agg, last[agg], n)
		}
	}
	if b.rejected.Load() == 0 {
		t.Fatal("no message was refused: the test did not exercise held-back aggregates")
	}
}

// TestPipelineKeepsOrder: with two batch transactions in flight (the next
// claimed while the current one publishes: on a backlog each slot claims
// one half of the shard's aggregates, beside a batch of the whole shard it
// leaves out that batch's aggregates), per aggregate every message is still
// acked only after the one before it, through random publish delays and
// refusals; and the batches did overlap (with Pipeline 1 they never do).
func TestPipelineKeepsOrder(t *testing.T) {
	c := get(t, "pg_jetstream")
	for _, tc := range []struct{ shards, pipeline int }{{1, 2}, {1, 1}, {2, 2}} {
		pipeline := tc.pipeline
		t.Run(fmt.Sprintf("shards=%d,pipeline=%d", tc.shards, pipeline), func(t *testing.T) {
			d := openDB(t, "postgres")
			rows := d.insert(t, sequence("t", aggregates("p", 24), 480)...)
			b := &overlapBroker{}
			o := pipelineOptions(pipeline)
			o.Shards = tc.shards
			runRelay(t, c, d, b.publisher(0), o)
			eventually(t, 60*time.Second, "every row published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
			b.checkAll(t, rows)
			switch got := b.maxSelf.Load(); {
			case pipeline == 2 && got < 2:
				t.Fatalf("pipeline 2: at most %d publish call in flight; the batches never overlapped", got)
			case pipeline == 1 && tc.shards == 1 && got != 1:
				t.Fatalf("pipeline 1: %d publish calls in flight at once", got)
			}
		})
	}
}

// TestPipelineLeaderModeTwoRelays: two pipelined relays in leader mode.
// Leadership passes only between batches: a relay with no batch in flight
// starts one only when the other relay holds neither of the two slot keys,
// so the two relays never publish at the same time, and order holds.
func TestPipelineLeaderModeTwoRelays(t *testing.T) {
	d := openDB(t, "postgres")
	twoPipelinedLeaders(t, d, d, "q", 720)
}

// twoPipelinedLeaders runs two pipelined relays in leader mode on relayDB
// (the database itself, or a pooler in front of it) while rows of 24
// aggregates arrive in d in bursts: every row is acked in order per
// aggregate, the relays never publish at the same time, and a relay did
// have two batches in flight.
func twoPipelinedLeaders(t *testing.T, d, relayDB *testDB, prefix string, n int) {
	t.Helper()
	c := get(t, "pg_jetstream")
	b := &overlapBroker{}
	o := pipelineOptions(2)
	o.PollInterval = 2 * time.Millisecond // both relays try all the time
	runRelay(t, c, relayDB, b.publisher(0), o)
	runRelay(t, c, relayDB, b.publisher(1), o)
	var rows []row
	all := sequence("t", aggregates(prefix, 24), n)
	for i := 0; i < len(all); i += 40 {
		rows = append(rows, d.insert(t, all[i:i+40]...)...)
		time.Sleep(15 * time.Millisecond)
	}
	eventually(t, 60*time.Second, "every row published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	b.checkAll(t, rows)
	if n := b.together.Load(); n > 0 {
		t.Fatalf("%d publish calls began while the other relay had one in flight: two leaders", n)
	}
	if b.maxSelf.Load() < 2 {
		t.Fatal("no relay had two batches in flight: the test did not exercise the pipeline (behind a pooler: the gate never passed)")
	}
}

// TestPipelineTrickle: rows that arrive a few at a time while a batch is in
// flight are claimed beside it (without its aggregates) instead of waiting
// for its acks and commit; per aggregate the order still holds through
// random publish delays and refusals, and the batches did overlap. Four
// aggregates, so that a claim beside a batch often meets rows of its
// aggregates (it fails when the claim does not leave them out).
func TestPipelineTrickle(t *testing.T) {
	c := get(t, "pg_jetstream")
	for _, shards := range []int{1, 2} {
		t.Run(fmt.Sprintf("shards=%d", shards), func(t *testing.T) {
			d := openDB(t, "postgres")
			b := &overlapBroker{}
			o := pipelineOptions(2)
			o.Shards = shards
			o.BatchSize = 100                     // never full: no backlog, no hash halves
			o.PollInterval = 2 * time.Millisecond // the poll stands in for notifications
			runRelay(t, c, d, b.publisher(0), o)
			var rows []row
			for _, r := range sequence("t", aggregates("r", 4), 300) {
				rows = append(rows, d.insert(t, r)...)
				time.Sleep(2 * time.Millisecond)
			}
			eventually(t, 60*time.Second, "every row published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
			b.checkAll(t, rows)
			if got := b.maxSelf.Load(); got < 2 {
				t.Fatalf("at most %d publish call in flight: no claim went beside a batch in flight", got)
			}
		})
	}
}

// TestPipelineThroughPgBouncer: two pipelined relays in leader mode through
// PgBouncer in transaction pooling (Debian's 1.18: no prepared statements
// there, so the URL asks pgx for exec mode). The pipeline's gate compares
// the batch's backend pid with pg_locks: the pid is read inside the batch
// transaction (behind the pooler the connection's own PID is PgBouncer's),
// so a second batch does go in flight beside the first, and order holds.
func TestPipelineThroughPgBouncer(t *testing.T) {
	bin := ""
	for _, p := range []string{"pgbouncer", "/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"} {
		if found, err := exec.LookPath(p); err == nil {
			bin = found
			break
		}
	}
	if bin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("pgbouncer not found (apt-get install pgbouncer; .ci/run installs it)")
		}
		t.Skip("pgbouncer not found: apt-get install pgbouncer")
	}
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	pooled := *d
	pooled.url = startPgBouncer(t, bin, d.url)
	twoPipelinedLeaders(t, d, &pooled, "b", 480)
	// The CLI's --pooler pgbouncer asks for the exec mode itself.
	plain := strings.Replace(pooled.url, "default_query_exec_mode=exec", "application_name=relaytest", 1)
	if code, out := runCLI(t, c, "status", "--database-url", plain, "--pooler", "pgbouncer"); code != 0 {
		t.Fatalf("status through PgBouncer with --pooler pgbouncer: exit %d\n%s", code, out)
	}
}

// startPgBouncer runs PgBouncer in transaction pooling in front of the
// server of dbURL and returns the URL of the same database through it.
func startPgBouncer(t *testing.T, bin, dbURL string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	user := u.User.Username()
	if user == "" {
		user = "postgres"
	}
	dir, err := os.MkdirTemp("", "pgbouncer-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	_ = os.Chmod(dir, 0o777) // PgBouncer refuses root: it runs as postgres and writes its log here
	addr := freeAddr(t)
	host, port, _ := net.SplitHostPort(addr)
	ini := fmt.Sprintf(`[databases]
* = host=%s port=%s user=%s

[pgbouncer]
listen_addr = %s
listen_port = %s
unix_socket_dir =
auth_type = any
pool_mode = transaction
max_client_conn = 200
default_pool_size = 20
ignore_startup_parameters = extra_float_digits
logfile = %s/pgbouncer.log
pidfile = %s/pgbouncer.pid
`, u.Hostname(), u.Port(), user, host, port, dir, dir)
	cfg := filepath.Join(dir, "pgbouncer.ini")
	if err := os.WriteFile(cfg, []byte(ini), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{cfg}
	if os.Geteuid() == 0 {
		args = []string{"-u", "postgres", cfg}
	}
	cmd := exec.Command(bin, args...)
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitTCP(t, addr, "pgbouncer")
	q := u.Query()
	q.Set("default_query_exec_mode", "exec")
	pooled := *u
	pooled.Host = addr
	pooled.RawQuery = q.Encode()
	return pooled.String()
}

// waitTCP waits until a server the test started accepts connections.
func waitTCP(t *testing.T, addr, what string) {
	t.Helper()
	eventually(t, 20*time.Second, what+" up", func() bool {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
		}
		return err == nil
	})
}
