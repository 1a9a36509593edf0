package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/nats-io/nats.go"

	"github.com/outboxify/outboxify/internal/testenv"
	"github.com/outboxify/outboxify/internal/testmod"
)

// uowFiles is the service in the dual-write shape that `outboxify fix`
// rewrites into a unit of work: testdata/uowapp/orders (a repository over
// *sql.DB, a publisher wrapper over core NATS, a service calling one then
// the other) and testdata/uowapp/cmd/uowapp (places the orders named by
// its arguments).
//
// Core NATS, not JetStream: fix leaves a JetStream wrapper
// (`_, err := js.Publish(ctx, subject, data)`) for a person, because the
// call returns (*PubAck, error) and fix's unit of work only guards broker
// calls whose result is an error alone, even when the ack is discarded.
//
//go:embed testdata/uowapp
var uowFiles embed.FS

// uowApp is the service after `outboxify fix`, built, with the relay fix
// generated.
type uowApp struct {
	dir        string // the temporary module
	app, relay string // binaries
	upSQL      string // the generated up migration
}

// TestUnitOfWorkFixKill is issue 18's end-to-end proof: a service whose
// write (repository) and publish (publisher wrapper) meet in a third
// function is rewritten by the real `outboxify fix` (not by hand); the
// rewritten service and the relay fix generated run as processes against
// PostgreSQL and NATS. Orders SIGKILLed while held between their write and
// their commit leave neither a row nor a message; every committed order
// arrives once (counted by outbox-id); OUTBOX_DIRECT=1 publishes directly.
func TestUnitOfWorkFixKill(t *testing.T) {
	natsURL := testenv.Require(t, testenv.NATS)
	dsn := testenv.PostgresDB(t)
	u := buildUOWApp(t)

	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, stmt := range []string{u.upSQL, `CREATE TABLE orders (id text PRIMARY KEY)`} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("migrate: %v\n%s", err, stmt)
		}
	}
	subject := testenv.Name("uow")

	// The consumer: a NATS subscription on the subject, started before
	// anything publishes, recording every delivery.
	nc, err := nats.Connect(natsURL)
	if err != nil {
		t.Fatalf("connect to NATS at %s: %v", natsURL, err)
	}
	t.Cleanup(nc.Close)
	var (
		mu       sync.Mutex
		received []delivery
	)
	sub, err := nc.Subscribe(subject, func(m *nats.Msg) {
		mu.Lock()
		defer mu.Unlock()
		received = append(received, delivery{outboxID: m.Header.Get("outbox-id"), payload: string(m.Data)})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	snapshot := func() []delivery {
		mu.Lock()
		defer mu.Unlock()
		return append([]delivery(nil), received...)
	}

	relay := start(t, "relay", u.relay, nil, "run",
		"--database-url", dsn, "--broker-url", natsURL, "--metrics-addr=",
		"--poll-interval", "100ms", "--retry-base", "50ms", "--retry-max", "500ms",
		"--shutdown-timeout", "5s", "--publish-timeout", "5s")

	appEnv := []string{"UOW_DSN=" + dsn, "UOW_NATS=" + natsURL, "UOW_SUBJECT=" + subject}
	committed := map[string]bool{}
	var placed, killed, direct []string
	place := func(extraEnv []string, ids ...string) {
		t.Helper()
		placed = append(placed, ids...)
		cmd := exec.Command(u.app, ids...)
		cmd.Env = append(append(os.Environ(), appEnv...), extraEnv...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("uowapp %s: %v\n%s", strings.Join(ids, " "), err, stderr.String())
		}
		for _, id := range committedIDs(out) {
			committed[id] = true
		}
	}

	// 1. Orders placed normally: each Place is one unit of work.
	var normal []string
	for i := range 20 {
		normal = append(normal, fmt.Sprintf("ok-%02d", i))
	}
	place(nil, normal...)

	// 2. Runs SIGKILLed while an order is held between its write and the
	// commit: the order's INSERT is done on the unit's transaction, which
	// the kill leaves uncommitted.
	for run, ids := range [][]string{{"k1-a", "k1-held", "k1-c"}, {"k2-held", "k2-b"}} {
		held := ids[1]
		if run == 1 {
			held = ids[0]
		}
		placed = append(placed, ids...)
		p := start(t, fmt.Sprintf("uowapp-kill-%d", run+1), u.app, append(append([]string(nil), appEnv...), "UOW_HOLD="+held), ids...)
		p.waitStderr(t, "uowapp: holding "+held, 30*time.Second)
		// The held order's row is written but not committed: an insert
		// of the same id waits on its unique-index entry.
		if err := rowLocked(db, held); err != nil {
			t.Fatalf("while %s is held: %v", held, err)
		}
		if n := countRows(t, db, `SELECT count(*) FROM orders WHERE id = $1`, held); n != 0 {
			t.Fatalf("held order %s is visible (%d rows) before its commit", held, n)
		}
		p.kill()
		killed = append(killed, held)
		for _, id := range committedIDs([]byte(p.out.String())) {
			committed[id] = true
		}
	}

	// 3. OUTBOX_DIRECT=1: the guard publishes directly (the rollback
	// switch), no outbox row.
	direct = []string{"direct-1", "direct-2", "direct-3"}
	place([]string{"OUTBOX_DIRECT=1"}, direct...)

	// The relay delivers everything the units committed.
	eventuallyf(t, 60*time.Second, func() string {
		return fmt.Sprintf("every outbox row published and received (unpublished %d, outbox-id deliveries %d)",
			countRows(t, db, `SELECT count(*) FROM outbox WHERE published_at IS NULL`), len(withOutboxID(snapshot())))
	}, func() bool {
		return countRows(t, db, `SELECT count(*) FROM outbox WHERE published_at IS NULL`) == 0 &&
			len(withOutboxID(snapshot())) >= countRows(t, db, `SELECT count(*) FROM outbox`)
	})
	time.Sleep(500 * time.Millisecond) // late duplicates would arrive here
	relay.stop(t)
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}

	// ---- counting ----
	rows := stringSet(t, db, `SELECT id FROM orders`)
	outbox := outboxOrders(t, db) // outbox id -> order id (the row's payload)
	got := snapshot()
	perOutboxID := map[string]int{}
	perOrder := map[string]int{}   // order id -> deliveries (relay and direct)
	relayOrder := map[string]int{} // order id -> deliveries carrying an outbox-id
	for _, d := range got {
		perOrder[d.payload]++
		if d.outboxID != "" {
			perOutboxID[d.outboxID]++
			relayOrder[d.payload]++
		}
	}
	duplicates, lost := 0, 0
	for _, n := range perOutboxID {
		duplicates += n - 1
	}
	for id := range outbox {
		if perOutboxID[id] == 0 {
			lost++
		}
	}
	for id := range committed {
		if perOrder[id] == 0 {
			lost++
		}
	}
	t.Logf("counts: placed=%d committed=%d killed=%d direct=%d order_rows=%d outbox_rows=%d received=%d (with outbox-id %d, distinct outbox ids %d, direct %d) duplicates=%d lost=%d",
		len(placed), len(committed), len(killed), len(direct), len(rows), len(outbox), len(got),
		len(withOutboxID(got)), len(perOutboxID), len(got)-len(withOutboxID(got)), duplicates, lost)

	if lost != 0 || duplicates != 0 {
		t.Errorf("lost = %d, duplicates = %d: want 0 each", lost, duplicates)
	}
	// Every committed order has its row; every row is a committed order.
	if !sameSet(sortedKeys(committed), sortedKeys(rows)) {
		t.Errorf("the service reported committed %v, the orders table holds %v", sortedKeys(committed), sortedKeys(rows))
	}
	// Committed: the normal orders, k1-a (placed before the kill) and the
	// direct ones; the orders after a held one were never placed.
	want := map[string]bool{"k1-a": true}
	for _, id := range append(append([]string(nil), normal...), direct...) {
		want[id] = true
	}
	if !sameSet(sortedKeys(committed), sortedKeys(want)) {
		t.Errorf("committed %v, want %v", sortedKeys(committed), sortedKeys(want))
	}
	// The killed orders: no row, no outbox row, no message.
	for _, id := range killed {
		if rows[id] {
			t.Errorf("killed order %s has a row", id)
		}
		for oid, p := range outbox {
			if p == id {
				t.Errorf("killed order %s has outbox row %s", id, oid)
			}
		}
		if perOrder[id] != 0 {
			t.Errorf("killed order %s was received %d times, want 0", id, perOrder[id])
		}
	}
	// Each order committed through the unit: one outbox row, received once
	// through the relay (outbox-id header) with the order id as payload.
	for id := range committed {
		isDirect := strings.HasPrefix(id, "direct-")
		switch {
		case isDirect && (relayOrder[id] != 0 || perOrder[id] != 1):
			t.Errorf("direct order %s: received %d times (%d through the relay), want once, directly", id, perOrder[id], relayOrder[id])
		case !isDirect && (relayOrder[id] != 1 || perOrder[id] != 1):
			t.Errorf("order %s: received %d times (%d with an outbox-id), want once, through the relay", id, perOrder[id], relayOrder[id])
		}
	}
	if want := len(committed) - len(direct); len(outbox) != want {
		t.Errorf("outbox holds %d rows, want %d (one per order committed through a unit, none for direct ones)", len(outbox), want)
	}
	for oid, order := range outbox {
		if !committed[order] || strings.HasPrefix(order, "direct-") {
			t.Errorf("outbox row %s is for order %q, want a committed order placed through a unit", oid, order)
		}
	}
	for _, d := range got {
		if !committed[d.payload] {
			t.Errorf("received a message for %q, which is no committed order", d.payload)
		}
		if d.outboxID != "" && outbox[d.outboxID] != d.payload {
			t.Errorf("message with outbox-id %s carries %q, its outbox row %q", d.outboxID, d.payload, outbox[d.outboxID])
		}
	}
}

// outboxOrders maps each outbox row's id to its payload, the order id (the
// writer stores a payload that is not JSON as a JSON string of its base64,
// said by the content-transfer-encoding header).
func outboxOrders(t *testing.T, db *sql.DB) map[string]string {
	t.Helper()
	r, err := db.Query(`SELECT id::text, payload::text, coalesce(headers->>'content-transfer-encoding', '') FROM outbox`)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := map[string]string{}
	for r.Next() {
		var id, payload, enc string
		if err := r.Scan(&id, &payload, &enc); err != nil {
			t.Fatal(err)
		}
		if enc == "base64" {
			var s string
			if err := json.Unmarshal([]byte(payload), &s); err != nil {
				t.Fatalf("outbox row %s: payload %s: %v", id, payload, err)
			}
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				t.Fatalf("outbox row %s: payload %s: %v", id, payload, err)
			}
			payload = string(b)
		}
		out[id] = payload
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// delivery is one message the test's subscription received.
type delivery struct{ outboxID, payload string }

func withOutboxID(ds []delivery) []delivery {
	var out []delivery
	for _, d := range ds {
		if d.outboxID != "" {
			out = append(out, d)
		}
	}
	return out
}

// committedIDs parses uowapp's "committed <id>" lines.
func committedIDs(out []byte) []string {
	var ids []string
	for _, l := range strings.Split(string(out), "\n") {
		if id, ok := strings.CutPrefix(strings.TrimSpace(l), "committed "); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// rowLocked reports nil when inserting id waits on another transaction's
// uncommitted row (lock_timeout), an error otherwise.
func rowLocked(db *sql.DB, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SET LOCAL lock_timeout = '300ms'`); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO orders (id) VALUES ($1)`, id)
	var pe *pgconn.PgError
	switch {
	case err == nil:
		return fmt.Errorf("inserting %s did not wait: no uncommitted row holds it (the write has not happened)", id)
	case errors.As(err, &pe) && pe.Code == "55P03":
		return nil // lock_not_available: an open transaction wrote this id
	}
	return fmt.Errorf("inserting %s: %v", id, err)
}

func countRows(t *testing.T, db *sql.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func stringSet(t *testing.T, db *sql.DB, query string) map[string]bool {
	t.Helper()
	r, err := db.Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	set := map[string]bool{}
	for r.Next() {
		var s string
		if err := r.Scan(&s); err != nil {
			t.Fatal(err)
		}
		set[s] = true
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return set
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sameSet(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

// buildUOWApp copies testdata/uowapp into a temporary module whose go.mod
// requires only what the service imports (go mod tidy, offline, from this
// repository's requirements), runs the real `outboxify fix ./...` on it,
// checks what fix did, and builds the rewritten service and the generated
// relay module.
func buildUOWApp(t *testing.T) *uowApp {
	t.Helper()
	dir := filepath.Join(buildRoot, "uowapp")
	files := map[string][]byte{}
	err := fs.WalkDir(uowFiles, "testdata/uowapp", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := uowFiles.ReadFile(p)
		files[strings.TrimPrefix(p, "testdata/uowapp/")] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := testmod.Write(dir, "example.com/uowapp", files); err != nil {
		t.Fatal(err)
	}
	goEnv := uowGoEnv(t)
	goCmd := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, goEnv
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
		}
	}
	// A real service's go.mod: its own requirements, not outboxify's
	// (detection reads go.mod: a gorm or Kafka requirement would pick them).
	goCmd(dir, "mod", "tidy")
	goMod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	goSum, _ := os.ReadFile(filepath.Join(dir, "go.sum"))

	// The CLI, built from this repository.
	cli := filepath.Join(buildRoot, "bin", "outboxify")
	if _, err := os.Stat(cli); err != nil {
		if err := os.MkdirAll(filepath.Dir(cli), 0o755); err != nil {
			t.Fatal(err)
		}
		goCmd(testmod.Root(), "build", "-o", cli, "./cmd/outboxify")
	}
	start := time.Now()
	fix := exec.Command(cli, "fix", "--format", "json", "./...")
	fix.Dir, fix.Env = dir, goEnv
	var stderr bytes.Buffer
	fix.Stderr = &stderr
	out, err := fix.Output()
	if err != nil {
		t.Fatalf("outboxify fix: %v\nstdout:\n%s\nstderr:\n%s", err, out, stderr.String())
	}
	var rec struct {
		Replaced []struct {
			Call, Strategy string
			Before         struct{ File string }
		}
		Manual []struct{ File, Reason string }
	}
	if err := json.Unmarshal(out, &rec); err != nil {
		t.Fatalf("fix --format json: %v\n%s", err, out)
	}
	t.Logf("outboxify fix in %s: %d replaced, %d manual", time.Since(start).Round(time.Millisecond), len(rec.Replaced), len(rec.Manual))
	if len(rec.Replaced) != 1 || rec.Replaced[0].Strategy != "unit-of-work" || len(rec.Manual) != 0 {
		t.Fatalf("fix: want the one dual write replaced by a unit of work, nothing manual:\n%s", out)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !bytes.Equal(now, goMod) {
		t.Errorf("fix changed go.mod:\n%s\nwas:\n%s", now, goMod)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "go.sum")); !bytes.Equal(now, goSum) {
		t.Errorf("fix changed go.sum")
	}
	// Rewritten across three functions: the service's body runs in a unit,
	// the repository writes through it, the wrapper's publish is guarded.
	src := funcSources(t, filepath.Join(dir, "orders", "orders.go"))
	for fn, want := range map[string]string{
		"Service.Place":     "outbox.Run(ctx, func(ctx context.Context) error {",
		"Repo.Create":       "outbox.SQL(ctx, r.db).ExecContext(ctx,",
		"NATSEvents.Placed": "outbox.Enqueue(ctx, outbox.Message{",
	} {
		if !strings.Contains(src[fn], want) {
			t.Errorf("fix did not rewrite %s: want %q in\n%s", fn, want, src[fn])
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	t.Logf("rewritten:\n%s\n%s\n%s", src["Repo.Create"], src["NATSEvents.Placed"], src["Service.Place"])
	// A re-scan finds no dual write left in the service (the relay fix
	// generated publishes by design and is its own module).
	scan := exec.Command(cli, "scan", "--format", "json", "./...")
	scan.Dir, scan.Env = dir, goEnv
	out, _ = scan.Output()
	var scanned struct {
		Findings []struct {
			Rule, File string
			Line       int
		}
	}
	if err := json.Unmarshal(out, &scanned); err != nil {
		t.Fatalf("scan --format json after fix: %v\n%s", err, out)
	}
	for _, f := range scanned.Findings {
		if strings.HasPrefix(f.File, "orders/") || strings.HasPrefix(f.File, "cmd/") {
			t.Errorf("scan after fix: %s:%d %s", f.File, f.Line, f.Rule)
		}
	}

	bin := filepath.Join(dir, "bin")
	goCmd(dir, "vet", "./...")
	goCmd(dir, "build", "-o", bin+string(filepath.Separator), "./cmd/uowapp")
	relayEnv := append(append([]string(nil), goEnv...), "GOFLAGS=-mod=readonly", "GOPROXY=off")
	cmd := exec.Command("go", "build", "-o", filepath.Join(bin, "outbox-relay"), ".")
	cmd.Dir, cmd.Env = filepath.Join(dir, "outbox-relay"), relayEnv
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the generated relay module does not build offline: %v\n%s", err, b)
	}
	ups, _ := filepath.Glob(filepath.Join(dir, "migrations", "*.up.sql"))
	if len(ups) != 1 {
		t.Fatalf("generated up migrations: %v, want one", ups)
	}
	up, err := os.ReadFile(ups[0])
	if err != nil {
		t.Fatal(err)
	}
	return &uowApp{dir: dir, app: filepath.Join(bin, "uowapp"), relay: filepath.Join(bin, "outbox-relay"), upSQL: string(up)}
}

// uowGoEnv is the go command's environment for the temporary module:
// offline from the module cache (then the machine's own proxy setting),
// outside any workspace, this toolchain.
func uowGoEnv(t *testing.T) []string {
	t.Helper()
	goenv := func(k string) string {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", k, err)
		}
		return strings.TrimSpace(string(out))
	}
	proxy := "file://" + filepath.ToSlash(filepath.Join(goenv("GOMODCACHE"), "cache", "download"))
	if p := goenv("GOPROXY"); p != "" && p != "off" {
		proxy += "," + p
	}
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k == "GOFLAGS" || k == "GOPROXY" || k == "GOWORK" || k == "GOSUMDB" || k == "GOTOOLCHAIN" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOPROXY="+proxy, "GOSUMDB=off", "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
}

// funcSources returns the source of each function declared in file, keyed
// Recv.Name (receiver type without *) or Name.
func funcSources(t *testing.T, file string) map[string]string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			rt := fd.Recv.List[0].Type
			if s, ok := rt.(*ast.StarExpr); ok {
				rt = s.X
			}
			if id, ok := rt.(*ast.Ident); ok {
				name = id.Name + "." + name
			}
		}
		out[name] = string(src[fset.Position(fd.Pos()).Offset:fset.Position(fd.End()).Offset])
	}
	return out
}
