// Package relaytest runs inside the temporary module that the outer test
// renders: it exercises the generated relay packages (imported in
// cases_test.go) against real servers. Server addresses come from the
// environment (set by the outer test); a test whose server is missing skips.
package relaytest

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
)

// relayCase is one generated relay package.
type relayCase struct {
	ident, db, broker string
	main              func(ctx context.Context, args []string, stdout, stderr io.Writer) int
	runFake           func(ctx context.Context, dbURL string, pub publishFunc, o fakeOptions) error
	// runFakeOn is runFake on a handle the test made: a *pgxpool.Pool
	// (PostgreSQL, the package's FromPool) or a *sql.DB (MySQL, FromSQL).
	runFakeOn     func(ctx context.Context, handle any, pub publishFunc, o fakeOptions) error
	isUnavailable func(error) bool // the package's IsUnavailable
}

var cases = map[string]relayCase{}

func register(c relayCase) { cases[c.ident] = c }

func get(t *testing.T, ident string) relayCase {
	t.Helper()
	c, ok := cases[ident]
	if !ok {
		t.Fatalf("relay case %s not rendered", ident)
	}
	return c
}

// TestMain lets the test binary double as the relay executable: with
// RELAYTEST_MAIN=<case> it runs that case's outbox-relay Main (for tests that
// need a real process to SIGKILL), without building another binary.
func TestMain(m *testing.M) {
	if ident := os.Getenv("RELAYTEST_MAIN"); ident != "" {
		c, ok := cases[ident]
		if !ok {
			fmt.Fprintf(os.Stderr, "no relay case %s\n", ident)
			os.Exit(2)
		}
		ctx, stop := signalContext()
		defer stop()
		os.Exit(c.main(ctx, os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// ---- databases ----

// testDB is a fresh database of one dialect with the generated migration applied.
type testDB struct {
	dialect string // postgres | mysql
	url     string // what the relay gets (--database-url)
	sql     *sql.DB
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func randName(prefix string) string {
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}

func needEnv(t testing.TB, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Skipf("%s not set (the outer test sets it when the server answers)", name)
	}
	return v
}

func openDB(t testing.TB, dialect string) *testDB {
	t.Helper()
	schema, err := os.ReadFile(filepath.Join("testdata", "schema_"+dialect+".sql"))
	if err != nil {
		t.Fatal(err)
	}
	name := randName("relay")
	var d testDB
	d.dialect = dialect
	switch dialect {
	case "postgres":
		admin := needEnv(t, "OUTBOXIFY_PG_URL")
		a, err := sql.Open("pgx", admin)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		if _, err := a.Exec("CREATE DATABASE " + name); err != nil {
			t.Fatalf("create database: %v", err)
		}
		t.Cleanup(func() {
			a, err := sql.Open("pgx", admin)
			if err == nil {
				_, _ = a.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
				a.Close()
			}
		})
		u, err := url.Parse(admin)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/" + name
		d.url = u.String()
		d.sql, err = sql.Open("pgx", d.url)
		if err != nil {
			t.Fatal(err)
		}
	case "mysql":
		admin := needEnv(t, "OUTBOXIFY_MYSQL_DSN")
		a, err := sql.Open("mysql", admin)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		if _, err := a.Exec("CREATE DATABASE " + name); err != nil {
			t.Fatalf("create database: %v", err)
		}
		t.Cleanup(func() {
			a, err := sql.Open("mysql", admin)
			if err == nil {
				_, _ = a.Exec("DROP DATABASE IF EXISTS " + name)
				a.Close()
			}
		})
		cfg, err := mysql.ParseDSN(admin)
		if err != nil {
			t.Fatal(err)
		}
		cfg.DBName = name
		cfg.ParseTime = true
		cfg.MultiStatements = true
		cfg.Loc = time.UTC
		cfg.Params = map[string]string{"time_zone": "'+00:00'"}
		d.url = cfg.FormatDSN()
		d.sql, err = sql.Open("mysql", d.url)
		if err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("dialect %s", dialect)
	}
	t.Cleanup(func() { d.sql.Close() })
	if _, err := d.sql.Exec(string(schema)); err != nil {
		t.Fatalf("apply generated migration: %v", err)
	}
	return &d
}

// row is what a test inserts into the outbox.
type row struct {
	ID            string
	AggregateType string
	AggregateID   string
	EventType     string
	Payload       string // JSON text
	Headers       map[string]string
}

// insert adds rows (in order, one transaction each, like separate commands).
func (d *testDB) insert(t testing.TB, rows ...row) []row {
	t.Helper()
	for i := range rows {
		r := &rows[i]
		if r.ID == "" {
			r.ID = newID()
		}
		if r.EventType == "" {
			r.EventType = "thing.happened"
		}
		h, _ := json.Marshal(r.Headers)
		if r.Headers == nil {
			h = []byte("{}")
		}
		q := `INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, headers) VALUES ($1, $2, $3, $4, $5, $6)`
		if d.dialect == "mysql" {
			q = strings.NewReplacer("$1", "?", "$2", "?", "$3", "?", "$4", "?", "$5", "?", "$6", "?").Replace(q)
		}
		if _, err := d.sql.Exec(q, r.ID, r.AggregateType, r.AggregateID, r.EventType, r.Payload, string(h)); err != nil {
			t.Fatalf("insert outbox row: %v", err)
		}
	}
	return rows
}

// sequence makes n rows spread over the aggregates, each payload {"agg":..,"n":k}
// with k the per-aggregate sequence number (1-based), interleaved.
func sequence(aggType string, aggregates []string, n int) []row {
	next := map[string]int{}
	rows := make([]row, n)
	for i := range rows {
		a := aggregates[(i*7+i/3)%len(aggregates)]
		next[a]++
		rows[i] = row{AggregateType: aggType, AggregateID: a, Payload: fmt.Sprintf(`{"agg": %q, "n": %d}`, a, next[a])}
	}
	return rows
}

func (d *testDB) q(query string) string {
	if d.dialect == "mysql" {
		for i := 9; i >= 1; i-- {
			query = strings.ReplaceAll(query, fmt.Sprintf("$%d", i), "?")
		}
	}
	return query
}

func (d *testDB) exec(t testing.TB, query string, args ...any) {
	t.Helper()
	if _, err := d.sql.Exec(d.q(query), args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

func (d *testDB) count(t testing.TB, where string, args ...any) int {
	t.Helper()
	var n int
	if err := d.sql.QueryRow(d.q("SELECT count(*) FROM outbox WHERE "+where), args...).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", where, err)
	}
	return n
}

type rowState struct {
	published, dead bool
	attempts        int
	lastError       string
	nextAttempt     bool
}

func (d *testDB) state(t testing.TB, id string) rowState {
	t.Helper()
	var s rowState
	var lastErr sql.NullString
	err := d.sql.QueryRow(d.q(`SELECT published_at IS NOT NULL, dead_at IS NOT NULL, attempts, last_error, next_attempt_at IS NOT NULL FROM outbox WHERE id = $1`), id).
		Scan(&s.published, &s.dead, &s.attempts, &lastErr, &s.nextAttempt)
	if err != nil {
		t.Fatalf("row %s: %v", id, err)
	}
	s.lastError = lastErr.String
	return s
}

// eventually polls cond until it holds or the timeout passes.
func eventually(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ---- relays ----

// syncBuffer collects a relay's output.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// relayRun is an in-process outbox-relay Main; stop = SIGTERM.
type relayRun struct {
	cancel context.CancelFunc
	done   chan int
	out    *syncBuffer
}

func startRelay(t *testing.T, c relayCase, args ...string) *relayRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &relayRun{cancel: cancel, done: make(chan int, 1), out: &syncBuffer{}}
	go func() { r.done <- c.main(ctx, append([]string{"run"}, args...), r.out, r.out) }()
	t.Cleanup(func() {
		if code := r.stop(); code != 0 && !t.Failed() {
			t.Errorf("relay exited %d:\n%s", code, r.out)
		}
		if t.Failed() {
			t.Logf("relay output:\n%s", r.out)
		}
	})
	return r
}

func (r *relayRun) stop() int {
	r.cancel()
	select {
	case code := <-r.done:
		r.done <- code
		return code
	case <-time.After(30 * time.Second):
		return -1
	}
}

// runCLI runs one outbox-relay command to completion.
func runCLI(t *testing.T, c relayCase, args ...string) (int, string) {
	t.Helper()
	var out syncBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	code := c.main(ctx, args, &out, &out)
	return code, out.String()
}

// relayProcess runs the relay as a real process (this test binary, see TestMain).
type relayProcess struct {
	cmd *exec.Cmd
	out *syncBuffer
}

func startProcess(t *testing.T, c relayCase, env []string, args ...string) *relayProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"run"}, args...)...)
	cmd.Env = append(append(os.Environ(), "RELAYTEST_MAIN="+c.ident), env...)
	p := &relayProcess{cmd: cmd, out: &syncBuffer{}}
	cmd.Stdout, cmd.Stderr = p.out, p.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("relay process output:\n%s", p.out)
		}
	})
	return p
}

func (p *relayProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = p.cmd.Wait()
}

// common relay flags for tests: fast polling and retries, metrics off.
func fastFlags(d *testDB, extra ...string) []string {
	return append([]string{"--database-url", d.url, "--poll-interval", "50ms", "--retry-base", "50ms",
		"--retry-max", "200ms", "--metrics-addr", "", "--log-level", "debug"}, extra...)
}

// ---- fake publisher ----

// Msg is a relay message as the fake publisher sees it.
type Msg struct {
	ID, AggregateType, AggregateID, EventType string
	Seq                                       int64
	Payload                                   []byte
	Headers                                   map[string]string
	Attempts                                  int
}

type publishFunc func(ctx context.Context, msgs []*Msg) []error

// unavailable is a fake "broker unreachable" error (the adapter wraps it
// with the package's Unavailable).
type unavailable struct{ msg string }

func (u unavailable) Error() string { return u.msg }

type fakeOptions struct {
	BatchSize       int
	Shards          int
	Pipeline        int // 0: the relay's default (2 in leader mode on PostgreSQL)
	PollInterval    time.Duration
	MaxAttempts     int
	RetryBase       time.Duration
	RetryMax        time.Duration
	OutageRetryMax  time.Duration
	OnDeadLetter    string
	ShutdownTimeout time.Duration
	PublishTimeout  time.Duration
	Failover        time.Duration
}

func defaultFake() fakeOptions {
	return fakeOptions{BatchSize: 100, PollInterval: 20 * time.Millisecond, MaxAttempts: 3,
		RetryBase: 30 * time.Millisecond, RetryMax: 100 * time.Millisecond}
}

// recorder is a fake broker: it records what it acked, in order.
type recorder struct {
	mu    sync.Mutex
	acked []*Msg
	calls int
	// decide returns the error for a message (nil acks it).
	decide func(m *Msg, call int) error
	// batch, when not nil, sees a whole Publish call first: a non-nil
	// result rejects every message of the call (as a broker that refuses a
	// produce batch for one record in it).
	batch func(msgs []*Msg) error
	// gate, when not nil, blocks every Publish until it is closed.
	gate chan struct{}
	// entered gets a value when a Publish call starts.
	entered chan struct{}
}

func (r *recorder) publish(ctx context.Context, msgs []*Msg) []error {
	if r.entered != nil {
		select {
		case r.entered <- struct{}{}:
		default:
		}
	}
	if r.gate != nil {
		select {
		case <-r.gate:
		case <-ctx.Done():
			errs := make([]error, len(msgs))
			for i := range errs {
				errs[i] = unavailable{"cancelled: " + ctx.Err().Error()}
			}
			return errs
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	errs := make([]error, len(msgs))
	if r.batch != nil {
		if err := r.batch(msgs); err != nil {
			for i := range errs {
				errs[i] = err
			}
			return errs
		}
	}
	for i, m := range msgs {
		if r.decide != nil {
			errs[i] = r.decide(m, r.calls)
		}
		if errs[i] == nil {
			r.acked = append(r.acked, m)
		}
	}
	return errs
}

func (r *recorder) ackedIDs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, len(r.acked))
	for i, m := range r.acked {
		ids[i] = m.ID
	}
	return ids
}

// runFake runs c's relay in-process with the fake publisher until the test ends.
func runFake(t *testing.T, c relayCase, d *testDB, rec *recorder, o fakeOptions) (stop func() error) {
	t.Helper()
	return runFakeWith(t, func(ctx context.Context) error { return c.runFake(ctx, d.url, rec.publish, o) })
}

// runFakeWith runs a relay (run, until its context ends) until the test ends.
func runFakeWith(t *testing.T, run func(ctx context.Context) error) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(30 * time.Second):
				err = fmt.Errorf("relay did not stop within 30s")
			}
		})
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

// checkOrder fails unless, per aggregate, the payload numbers n arrive as
// 1, 2, 3, ... with duplicates only as repeats of what was already seen.
func checkOrder(t testing.TB, payloads []struct{ agg, body string }) map[string]int {
	t.Helper()
	last := map[string]int{}
	for _, p := range payloads {
		var v struct {
			Agg string `json:"agg"`
			N   int    `json:"n"`
		}
		if err := json.Unmarshal([]byte(p.body), &v); err != nil {
			t.Fatalf("payload %q: %v", p.body, err)
		}
		if v.Agg != p.agg {
			t.Fatalf("payload of aggregate %s arrived with key %s", v.Agg, p.agg)
		}
		switch {
		case v.N == last[v.Agg]+1:
			last[v.Agg] = v.N
		case v.N <= last[v.Agg]:
			// a redelivery of something already seen: allowed (at least once)
		default:
			t.Fatalf("aggregate %s: message %d arrived after %d (out of order)", v.Agg, v.N, last[v.Agg])
		}
	}
	return last
}

// quietLogger keeps the in-process relays' logs out of the test output
// (RELAYTEST_LOG=1 shows them).
func quietLogger() *slog.Logger {
	if os.Getenv("RELAYTEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func signalContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
