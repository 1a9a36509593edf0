package e2e

import (
	"bufio"
	"bytes"
	"database/sql"
	_ "embed"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"text/template"
	"time"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/outboxify/outboxify/generate"
	"github.com/outboxify/outboxify/internal/testenv"
	"github.com/outboxify/outboxify/internal/testmod"
	"github.com/outboxify/outboxify/templates"
)

// modulePath is the module path of the temporary module.
const modulePath = "example.com/e2eapp"

//go:embed testdata/app/main.go.tmpl
var appTemplate string

// long reports whether the soak variants run (OUTBOXIFY_LONG=1).
var long = testenv.MustEnvBool("OUTBOXIFY_LONG")

// stack is one database × broker combination under test.
type stack struct {
	db     string // postgres | mysql
	broker string // jetstream | franz-go
}

func (s stack) String() string { return s.db + "_" + strings.ReplaceAll(s.broker, "-", "") }

var (
	pgJetStream = stack{"postgres", "jetstream"}
	myJetStream = stack{"mysql", "jetstream"}
	pgKafka     = stack{"postgres", "franz-go"}
	// The other Kafka clients' publishers, for the publisher-specific
	// tests (republish after a kill, poison message).
	pgKafkaGo = stack{"postgres", "kafka-go"}
	pgSarama  = stack{"postgres", "sarama"}
)

// binaries are the built programs of one stack.
type binaries struct {
	relay, app string
	module     string // the temporary module (rendered rules files are read from it)
	cfg        templates.Config
}

var (
	buildRoot string
	buildMu   sync.Mutex
	built     = map[stack]*binaries{}
	buildErr  = map[stack]error{}
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "outboxify-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	buildRoot = dir
	code := m.Run()
	if os.Getenv("OUTBOXIFY_E2E_KEEP") == "" {
		_ = os.RemoveAll(dir)
	} else {
		fmt.Fprintln(os.Stderr, "e2e: kept the temporary modules in", dir)
	}
	os.Exit(code)
}

// build generates the scaffolding for s into a temporary module through the
// generate pipeline, adds the e2e program and builds both binaries (once per
// stack and test binary; the go build cache is shared).
func build(t *testing.T, s stack) *binaries {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if b, ok := built[s]; ok {
		return b
	}
	if err, ok := buildErr[s]; ok {
		t.Fatalf("build %s: %v", s, err)
	}
	b, err := buildStack(s)
	if err != nil {
		buildErr[s] = err
		t.Fatalf("build %s: %v", s, err)
	}
	built[s] = b
	return b
}

func buildStack(s stack) (*binaries, error) {
	dir := filepath.Join(buildRoot, s.String())
	cfg := templates.Config{Module: modulePath, DB: s.db, Driver: "database/sql", Broker: s.broker, Migrations: "migrate", Relay: "polling"}
	app, err := renderApp(cfg)
	if err != nil {
		return nil, err
	}
	if err := testmod.Write(dir, modulePath, map[string][]byte{"cmd/e2eapp/main.go": app}); err != nil {
		return nil, err
	}
	cs, err := generate.Plan(dir, cfg, generate.Options{})
	if err != nil {
		return nil, fmt.Errorf("generate plan: %w", err)
	}
	if err := cs.Apply(false); err != nil {
		return nil, fmt.Errorf("generate apply: %w", err)
	}
	bin := filepath.Join(dir, "bin")
	start := time.Now()
	if out, err := testmod.GoErr(dir, "build", "-o", bin+string(filepath.Separator), "./cmd/e2eapp"); err != nil {
		return nil, fmt.Errorf("go build: %v\n%s", err, out)
	}
	// The relay is its own module, built from its pinned go.mod and go.sum.
	relay := filepath.Join(bin, "outbox-relay")
	if out, err := testmod.GoErr(filepath.Join(dir, filepath.FromSlash(cs.Config.RelayModuleDir)), "build", "-o", relay, "."); err != nil {
		return nil, fmt.Errorf("go build relay module: %v\n%s", err, out)
	}
	fmt.Fprintf(os.Stderr, "e2e: built %s relay and e2eapp in %s\n", s, time.Since(start).Round(time.Millisecond))
	return &binaries{relay: relay, app: filepath.Join(bin, "e2eapp"), module: dir, cfg: cs.Config}, nil
}

func renderApp(cfg templates.Config) ([]byte, error) {
	funcs := template.FuncMap{
		"quote": func(s string) string { return fmt.Sprintf("%q", s) },
		"oneof": func(v string, set ...string) bool { return slices.Contains(set, v) },
	}
	t, err := template.New("app").Funcs(funcs).Parse(appTemplate)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, cfg); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// env is one test's isolated world: a fresh database with the generated
// migration applied, a destination on the broker, the binaries.
type env struct {
	t         *testing.T
	stack     stack
	bin       *binaries
	dsn       string
	db        *sql.DB
	typ       string // aggregate type = subject/stream/topic
	brokerURL string
	consumer  string // inbox consumer name
	broker    brokerEnv
}

// brokerEnv is the broker side of an env.
type brokerEnv interface {
	url() string
	// prepare creates the destination typ (stream/topic).
	prepare(t *testing.T, typ string, o destOptions)
}

// destOptions tune the destination a test publishes to.
type destOptions struct {
	maxMsgSize int32 // JetStream stream max message size (poison tests); 0: server default
}

type envOption func(*envConfig)

type envConfig struct {
	broker brokerEnv
	dest   destOptions
	dsn    string // a database of the test's own server instead of a fresh one on the shared server
}

func withDSN(dsn string) envOption { return func(c *envConfig) { c.dsn = dsn } }

func withBroker(b brokerEnv) envOption { return func(c *envConfig) { c.broker = b } }
func withMaxMsgSize(n int32) envOption { return func(c *envConfig) { c.dest.maxMsgSize = n } }

func newEnv(t *testing.T, s stack, opts ...envOption) *env {
	t.Helper()
	var cfg envConfig
	for _, o := range opts {
		o(&cfg)
	}
	dsn, driver := cfg.dsn, map[string]string{"postgres": "pgx", "mysql": "mysql"}[s.db]
	switch {
	case dsn != "":
	case s.db == "postgres":
		dsn = testenv.PostgresDB(t)
	case s.db == "mysql":
		dsn = testenv.MySQLDB(t)
	}
	if cfg.broker == nil {
		cfg.broker = sharedBroker(t, s)
	}
	bin := build(t, s) // a broker the relay templates cannot serve fails here, loudly
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := &env{t: t, stack: s, bin: bin, dsn: dsn, db: db, typ: testenv.Name("e2e"), consumer: "e2e-consumer", broker: cfg.broker}
	e.brokerURL = cfg.broker.url()
	e.migrate()
	cfg.broker.prepare(t, e.typ, cfg.dest)
	return e
}

// migrate applies the generated up migration and the test's business tables.
func (e *env) migrate() {
	t := e.t
	var up []byte
	mdir := filepath.Join(e.bin.module, filepath.FromSlash(e.bin.cfg.MigrationsDir))
	ents, err := os.ReadDir(mdir)
	if err != nil {
		t.Fatal(err)
	}
	for _, en := range ents {
		if strings.HasSuffix(en.Name(), ".up.sql") {
			if up, err = os.ReadFile(filepath.Join(mdir, en.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if up == nil {
		t.Fatalf("no generated .up.sql migration in %s", mdir)
	}
	business := `CREATE TABLE e2e_orders (id bigserial PRIMARY KEY, aggregate_id text NOT NULL, n int NOT NULL);
CREATE TABLE e2e_applied (applied_seq bigserial PRIMARY KEY, consumer text NOT NULL, message_id uuid NOT NULL, aggregate_id text NOT NULL, n int NOT NULL);`
	if e.stack.db == "mysql" {
		business = `CREATE TABLE e2e_orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, aggregate_id VARCHAR(255) NOT NULL, n INT NOT NULL);
CREATE TABLE e2e_applied (applied_seq BIGINT AUTO_INCREMENT PRIMARY KEY, consumer VARCHAR(255) NOT NULL, message_id CHAR(36) NOT NULL, aggregate_id VARCHAR(255) NOT NULL, n INT NOT NULL);`
	}
	for _, stmt := range []string{string(up), business} {
		if _, err := e.db.Exec(stmt); err != nil {
			t.Fatalf("migrate: %v\n%s", err, stmt)
		}
	}
}

// q rewrites ? placeholders to $n for PostgreSQL.
func (e *env) q(query string) string {
	if e.stack.db == "mysql" {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (e *env) count(query string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.db.QueryRow(e.q(query), args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", query, err)
	}
	return n
}

// ---- processes ----

// syncBuffer is a bytes.Buffer safe for a writing process and a reading test.
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

// proc is a running program.
type proc struct {
	name     string
	cmd      *exec.Cmd
	out, err syncBuffer
	done     chan struct{}
	exitErr  error
}

func start(t *testing.T, name, bin string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, done: make(chan struct{})}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.err
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		p.exitErr = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		if p.running() {
			p.kill()
		}
		if t.Failed() {
			t.Logf("--- %s (pid %d) stderr (tail):\n%s", name, p.cmd.Process.Pid, tail(p.err.String(), 40))
		}
	})
	return p
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}

func (p *proc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// kill sends SIGKILL and waits for the process to be gone.
func (p *proc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// stop sends SIGTERM and waits (SIGKILL after 30 s).
func (p *proc) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		p.kill()
		t.Errorf("%s did not stop within 30s of SIGTERM", p.name)
	}
}

// waitStderr waits until the process wrote substr to stderr.
func (p *proc) waitStderr(t *testing.T, substr string, timeout time.Duration) {
	t.Helper()
	eventually(t, timeout, fmt.Sprintf("%s to print %q", p.name, substr), func() bool {
		return strings.Contains(p.err.String(), substr)
	})
}

func eventually(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	eventuallyf(t, timeout, func() string { return what }, cond)
}

// eventuallyf is eventually with a description computed at the timeout.
func eventuallyf(t *testing.T, timeout time.Duration, what func() string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ---- relay, producer, consumer ----

// relay starts one relay process; extra flags are appended to the fast
// test defaults.
func (e *env) relay(name string, envVars []string, extra ...string) *proc {
	e.t.Helper()
	args := append([]string{"run",
		"--database-url", e.dsn, "--broker-url", e.brokerURL, "--metrics-addr=",
		"--poll-interval", "100ms", "--retry-base", "50ms", "--retry-max", "500ms",
		"--shutdown-timeout", "5s", "--publish-timeout", "5s",
	}, extra...)
	return start(e.t, name, e.bin.relay, envVars, args...)
}

// producerCounts is what e2eapp produce/swap prints.
type producerCounts struct {
	Sent, Committed, RolledBack, BlockedRounds int
}

func (e *env) runApp(args ...string) []byte {
	e.t.Helper()
	out, err := e.runAppErr(args...)
	if err != nil {
		e.t.Fatalf("e2eapp %s: %v", args[0], err)
	}
	return out
}

func (e *env) runAppErr(args ...string) ([]byte, error) {
	cmd := exec.Command(e.bin.app, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%w\n%s", err, stderr.String())
	}
	if msg := strings.TrimSpace(stderr.String()); msg != "" {
		e.t.Logf("e2eapp %s stderr:\n%s", args[0], tail(msg, 20))
	}
	return out, nil
}

// produce runs e2eapp produce to completion.
func (e *env) produce(args ...string) producerCounts {
	e.t.Helper()
	out := e.runApp(append([]string{"produce", "-dsn", e.dsn, "-type", e.typ}, args...)...)
	return decodeCounts(e.t, out)
}

func decodeCounts(t *testing.T, out []byte) producerCounts {
	t.Helper()
	p := decodeCountsErr(t, out)
	if t.Failed() {
		t.FailNow()
	}
	return p
}

// decodeCountsErr reports a bad output with Errorf (safe off the test goroutine).
func decodeCountsErr(t *testing.T, out []byte) producerCounts {
	var m map[string]int
	if err := json.Unmarshal(lastLine(out), &m); err != nil {
		t.Errorf("decode counts %q: %v", out, err)
	}
	return producerCounts{Sent: m["sent"], Committed: m["committed"], RolledBack: m["rolled_back"], BlockedRounds: m["blocked_rounds"]}
}

func lastLine(b []byte) []byte {
	var last []byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			last = append([]byte(nil), sc.Bytes()...)
		}
	}
	return last
}

// consumerProc is a running e2eapp consume.
type consumerProc struct{ *proc }

func (e *env) consume() consumerProc {
	e.t.Helper()
	p := start(e.t, "consumer", e.bin.app, nil, "consume", "-dsn", e.dsn, "-broker-url", e.brokerURL, "-type", e.typ, "-name", e.consumer)
	p.waitStderr(e.t, "e2eapp consume: ready", 30*time.Second)
	return consumerProc{p}
}

// consumerCounts is what e2eapp consume prints when stopped.
type consumerCounts struct {
	Received, Applied, Duplicates, Retries, Undecodable int
	OrderViolations                                     int `json:"order_violations"`
}

// finish stops the consumer and returns its counts.
func (c consumerProc) finish(t *testing.T) consumerCounts {
	t.Helper()
	c.stop(t)
	var cc consumerCounts
	if err := json.Unmarshal(lastLine([]byte(c.out.String())), &cc); err != nil {
		t.Fatalf("consumer counts %q: %v\nstderr:\n%s", c.out.String(), err, tail(c.err.String(), 30))
	}
	return cc
}

// ---- counting ----

// counts is the state after a run, from the database and the consumer.
type counts struct {
	Sent, Committed, Published, Received, Applied, Duplicates, Lost int
	Distinct, Inbox, Dead, Pending, OrderViolations, BusinessRows   int
}

func (c counts) String() string {
	return fmt.Sprintf("sent=%d committed=%d published=%d received=%d applied=%d duplicates=%d lost=%d (distinct=%d inbox=%d dead=%d pending=%d order_violations=%d business_rows=%d)",
		c.Sent, c.Committed, c.Published, c.Received, c.Applied, c.Duplicates, c.Lost,
		c.Distinct, c.Inbox, c.Dead, c.Pending, c.OrderViolations, c.BusinessRows)
}

// applied is the number of distinct message ids the consumer applied.
func (e *env) applied() int {
	return e.count(`SELECT count(DISTINCT message_id) FROM e2e_applied WHERE consumer = ?`, e.consumer)
}

// waitApplied waits until the consumer applied n distinct messages.
func (e *env) waitApplied(n int, timeout time.Duration) {
	e.t.Helper()
	eventually(e.t, timeout, fmt.Sprintf("%d messages applied", n), func() bool { return e.applied() >= n })
}

// waitDelivered waits until every committed, not dead-lettered message was
// applied (and is marked published).
func (e *env) waitDelivered(timeout time.Duration) {
	e.t.Helper()
	what := func() string {
		return fmt.Sprintf("every committed message applied and marked published (now: committed %d, unpublished %d, dead %d, applied %d)",
			e.count(`SELECT count(*) FROM outbox`), e.count(`SELECT count(*) FROM outbox WHERE published_at IS NULL`),
			e.count(`SELECT count(*) FROM outbox WHERE dead_at IS NOT NULL`), e.applied())
	}
	// timeout bounds a stall, not the drain: on a loaded machine the relay
	// and consumer keep going, only slower, and the property is that every
	// message arrives. A hard cap keeps a livelock from running forever.
	hard := time.Now().Add(4 * timeout)
	stall := time.Now().Add(timeout)
	last := -1
	for {
		pending := e.count(`SELECT count(*) FROM outbox WHERE dead_at IS NULL AND published_at IS NULL`)
		lost := e.lost("")
		if pending == 0 && lost == 0 {
			return
		}
		if done := e.count(`SELECT count(*) FROM outbox`) - pending + e.applied(); done > last {
			last, stall = done, time.Now().Add(timeout)
		}
		if now := time.Now(); now.After(stall) || now.After(hard) {
			e.t.Fatalf("no progress for %s (or over %s in all) waiting for %s", timeout, 4*timeout, what())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// lost counts committed messages (not dead-lettered, matching extra) with
// no inbox row.
func (e *env) lost(extra string) int {
	e.t.Helper()
	join := "i.message_id = o.id"
	return e.count(`SELECT count(*) FROM outbox o WHERE o.dead_at IS NULL`+extra+
		` AND NOT EXISTS (SELECT 1 FROM inbox i WHERE i.consumer = ? AND `+join+`)`, e.consumer)
}

// tally gathers the counts of a finished run.
func (e *env) tally(p producerCounts, c consumerCounts) counts {
	e.t.Helper()
	return counts{
		Sent: p.Sent, Committed: e.count(`SELECT count(*) FROM outbox`),
		Published: e.count(`SELECT count(*) FROM outbox WHERE published_at IS NOT NULL`),
		Received:  c.Received, Duplicates: c.Duplicates,
		Applied:      e.count(`SELECT count(*) FROM e2e_applied WHERE consumer = ?`, e.consumer),
		Distinct:     e.applied(),
		Inbox:        e.count(`SELECT count(*) FROM inbox WHERE consumer = ?`, e.consumer),
		Dead:         e.count(`SELECT count(*) FROM outbox WHERE dead_at IS NOT NULL`),
		Pending:      e.count(`SELECT count(*) FROM outbox WHERE published_at IS NULL AND dead_at IS NULL`),
		Lost:         e.lost(""),
		BusinessRows: e.count(`SELECT count(*) FROM e2e_orders WHERE n > 0`),
		OrderViolations: e.count(`SELECT count(*) FROM (SELECT n, LAG(n) OVER (PARTITION BY aggregate_id ORDER BY applied_seq) AS prev
			FROM e2e_applied WHERE consumer = ?) x WHERE prev IS NOT NULL AND n <= prev`, e.consumer),
	}
}

// verify prints the counts and checks the guarantees every run must keep:
// nothing committed is lost, each message id is applied once (inbox rows ==
// distinct ids == applied rows), per-aggregate order holds, the producer's
// committed count is what the outbox holds, and every delivery was either
// applied or recognised as a duplicate.
func (e *env) verify(p producerCounts, c consumerCounts) counts {
	e.t.Helper()
	k := e.tally(p, c)
	e.t.Logf("counts: %s", k)
	if k.Lost != 0 {
		e.t.Errorf("lost = %d, want 0", k.Lost)
	}
	if k.Applied != k.Distinct || k.Inbox != k.Distinct {
		e.t.Errorf("applied rows %d, distinct message ids %d, inbox rows %d: want all equal (each message applied once)", k.Applied, k.Distinct, k.Inbox)
	}
	if k.OrderViolations != 0 || c.OrderViolations != 0 {
		e.t.Errorf("per-aggregate order violated: %d in the apply log, %d seen by the consumer\n%s", k.OrderViolations, c.OrderViolations, e.orderReport())
	}
	if p.Committed != k.Committed {
		e.t.Errorf("producer committed %d messages, outbox holds %d rows", p.Committed, k.Committed)
	}
	if c.Received != c.Applied+c.Duplicates+c.Undecodable {
		e.t.Errorf("consumer received %d but applied %d + duplicates %d + undecodable %d", c.Received, c.Applied, c.Duplicates, c.Undecodable)
	}
	// A commit whose connection dies can succeed without the consumer
	// knowing: the retry then finds the inbox row and counts a duplicate.
	// So the log may hold more than the consumer counted, by at most the
	// number of retried transactions, never less.
	if k.Distinct < c.Applied || k.Distinct > c.Applied+c.Retries {
		e.t.Errorf("consumer says it applied %d (%d retried transactions), the apply log has %d distinct ids", c.Applied, c.Retries, k.Distinct)
	}
	return k
}

// freePort returns a loopback port nobody listens on right now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// orderReport lists the first messages applied out of order, with their
// outbox seq, to tell a relay reordering from a consumer one.
func (e *env) orderReport() string {
	rows, err := e.db.Query(e.q(`SELECT x.aggregate_id, x.prev, x.n, x.applied_seq, o.seq FROM (
  SELECT aggregate_id, message_id, n, applied_seq, LAG(n) OVER (PARTITION BY aggregate_id ORDER BY applied_seq) AS prev
  FROM e2e_applied WHERE consumer = ?) x JOIN outbox o ON o.id = x.message_id
WHERE x.prev IS NOT NULL AND x.n <= x.prev ORDER BY x.applied_seq LIMIT 10`), e.consumer)
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	b.WriteString("aggregate  previous n  n  applied_seq  outbox seq\n")
	for rows.Next() {
		var agg string
		var prev, n, applied, seq int64
		if err := rows.Scan(&agg, &prev, &n, &applied, &seq); err != nil {
			return err.Error()
		}
		fmt.Fprintf(&b, "%s  %d  %d  %d  %d\n", agg, prev, n, applied, seq)
	}
	return b.String()
}
