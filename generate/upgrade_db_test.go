package generate_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/outboxify/outboxify/generate"
	"github.com/outboxify/outboxify/internal/testmod"
	"github.com/outboxify/outboxify/templates"
)

// upgradeFromFixture copies the schema-1 module testdata/schema1/<db>_sql,
// runs generate's migrations on it and returns the schema-1 migration as it
// is on disk and the upgrade migrations generate adds (up files, one per
// schema version step, in order, joined).
func upgradeFromFixture(t *testing.T, db string) (v1, upgrade string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "schema1", db+"_sql"))); err != nil {
		t.Fatal(err)
	}
	det, _, err := generate.Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := generate.Plan(dir, det, generate.Options{Components: []string{"migrations"}})
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, ch := range cs.Changes {
		switch {
		case strings.HasSuffix(ch.Path, "_outbox.up.sql") && ch.Action == generate.Unchanged:
			v1 = string(ch.Old)
		case strings.HasSuffix(ch.Path, ".up.sql") && ch.Action == generate.Create:
			steps = append(steps, ch.Path)
			upgrade += string(ch.New)
		}
	}
	if !sort.StringsAreSorted(steps) {
		t.Fatalf("upgrade steps out of order: %v", steps)
	}
	if v1 == "" || upgrade == "" || strings.Contains(v1, generate.SchemaMarker) {
		t.Fatalf("no schema-1 migration or no upgrade:\n%s", cs.Summary())
	}
	return v1, upgrade
}

// upgradeRows are the rows a schema-1 database holds before the upgrade:
// what the writer inserted (its INSERT's columns), then what a relay did
// with them. The ids name the rows in the inner test.
var upgradeRows = []struct{ id, agg, state string }{
	{"00000000-0000-4000-8000-000000000001", "a", "published"},
	{"00000000-0000-4000-8000-000000000002", "a", "pending"},
	{"00000000-0000-4000-8000-000000000003", "b", "dead"},
	{"00000000-0000-4000-8000-000000000004", "b", "pending"}, // behind the dead letter: held back (block mode)
	{"00000000-0000-4000-8000-000000000005", "a", "pending"},
	{"00000000-0000-4000-8000-000000000006", "c", "pending"},
}

// The dead letters and published rows that every claim walked in schema 1.
const bulkPublished, bulkDead = 3000, 600

// seedSchema1 writes upgradeRows and the bulk rows with SQL a schema-1
// writer and relay ran.
func seedSchema1(t *testing.T, db string, conn any) {
	t.Helper()
	exec := func(q string, args ...any) {
		t.Helper()
		var err error
		if db == "postgres" {
			_, err = conn.(*pgx.Conn).Exec(context.Background(), q, args...)
		} else {
			_, err = conn.(*sql.DB).Exec(q, args...)
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	insert := `INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, headers) VALUES ($1, 'order', $2, 'OrderPlaced', '{"n":1}', '{}')`
	published := `UPDATE outbox SET published_at = now(), next_attempt_at = NULL WHERE id = $1`
	dead := `UPDATE outbox SET attempts = 10, last_error = 'rejected', next_attempt_at = now(), dead_at = now() WHERE id = $1`
	if db == "mysql" {
		r := strings.NewReplacer("$1", "?", "$2", "?", "now()", "NOW(6)")
		insert, published, dead = r.Replace(insert), r.Replace(published), r.Replace(dead)
	}
	for _, r := range upgradeRows {
		exec(insert, r.id, r.agg)
		switch r.state {
		case "published":
			exec(published, r.id)
		case "dead":
			exec(dead, r.id)
		}
	}
	if db == "postgres" {
		exec(fmt.Sprintf(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, published_at)
SELECT gen_random_uuid(), 'bulk', 'p' || g, 'e', '{}', now() FROM generate_series(1, %d) g`, bulkPublished))
		exec(fmt.Sprintf(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, attempts, next_attempt_at, dead_at)
SELECT gen_random_uuid(), 'bulk', 'd' || g, 'e', '{}', 10, now(), now() FROM generate_series(1, %d) g`, bulkDead))
		exec("ANALYZE outbox")
	} else {
		exec(fmt.Sprintf(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, published_at)
SELECT UUID(), 'bulk', CONCAT('p', seq), 'e', '{}', NOW(6) FROM seq_1_to_%d`, bulkPublished))
		exec(fmt.Sprintf(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, attempts, next_attempt_at, dead_at)
SELECT UUID(), 'bulk', CONCAT('d', seq), 'e', '{}', 10, NOW(6), NOW(6) FROM seq_1_to_%d`, bulkDead))
		exec("ANALYZE TABLE outbox")
	}
}

// rowStates lists every outbox row: id, aggregate, attempts, which of
// published_at, next_attempt_at and dead_at are set, payload.
func rowStates(t *testing.T, db string, conn any) string {
	t.Helper()
	q := `SELECT CONCAT(id, ' ', aggregate_id, ' ', attempts, ' ', published_at IS NULL, next_attempt_at IS NULL, dead_at IS NULL, ' ', CAST(payload AS CHAR)) FROM outbox ORDER BY seq`
	var out []string
	if db == "postgres" {
		q = strings.NewReplacer("CAST(payload AS CHAR)", "payload::text").Replace(q)
		rows, err := conn.(*pgx.Conn).Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if out, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			t.Fatal(err)
		}
	} else {
		rows, err := conn.(*sql.DB).Query(q)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
	}
	if len(out) != len(upgradeRows)+bulkPublished+bulkDead {
		t.Fatalf("%d outbox rows, want %d", len(out), len(upgradeRows)+bulkPublished+bulkDead)
	}
	return strings.Join(out, "\n")
}

// claimIndexDef returns the definition of the claim index.
func claimIndexDef(t *testing.T, db string, conn any) string {
	t.Helper()
	var def string
	var err error
	if db == "postgres" {
		err = conn.(*pgx.Conn).QueryRow(context.Background(), `SELECT pg_get_indexdef('outbox_unpublished'::regclass)`).Scan(&def)
	} else {
		err = conn.(*sql.DB).QueryRow(`SELECT GROUP_CONCAT(column_name ORDER BY seq_in_index) FROM information_schema.statistics
WHERE table_schema = DATABASE() AND table_name = 'outbox' AND index_name = 'outbox_unpublished'`).Scan(&def)
	}
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// TestSchemaUpgradeAgainstDatabases: on PostgreSQL and MariaDB, the
// schema-1 migration (as an earlier outboxify generated it) holding rows a
// schema-1 writer and relay left (pending, published, dead letters, a row
// held behind a dead letter) takes the upgrade migrations generate adds
// (schema 2, then 3, then 4 on PostgreSQL: the trigger notifies only while
// a relay idles); the rows are kept as they were, the claim index no
// longer holds dead letters, and this outboxify's relay (rendered, run by
// testdata/upgradetest.go.tmpl) claims through that index, publishes
// exactly the pending rows and blocks the one behind the dead letter; a
// replay of that dead letter releases it, and a relay publishes both in
// order. Nothing is lost.
func TestSchemaUpgradeAgainstDatabases(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	t.Parallel()
	tmplText, err := os.ReadFile("testdata/upgradetest.go.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("upgradetest").Delims("[[", "]]").Parse(string(tmplText)))
	const mod = "example.com/upgradetest"
	files := map[string][]byte{}
	var env []string
	var pending []string
	for _, r := range upgradeRows {
		if r.state == "pending" && r.agg != "b" {
			pending = append(pending, r.id)
		}
	}
	for _, db := range []string{"postgres", "mysql"} {
		v1, upgrade := upgradeFromFixture(t, db)
		conn, dsn, closeConn := openDB(t, db)
		execScript(t, db, conn, v1)
		seedSchema1(t, db, conn)
		before := rowStates(t, db, conn)
		oldDef := claimIndexDef(t, db, conn)
		execScript(t, db, conn, upgrade)
		if after := rowStates(t, db, conn); after != before {
			t.Fatalf("%s: the upgrade changed the rows", db)
		}
		def := claimIndexDef(t, db, conn)
		wantDef := map[string]string{"postgres": "WHERE ((published_at IS NULL) AND (dead_at IS NULL) AND (blocked_at IS NULL))", "mysql": "published_at,dead_at,blocked_at,seq"}[db]
		if !strings.Contains(def, wantDef) || strings.Contains(oldDef, wantDef) {
			t.Fatalf("%s: claim index before %q, after %q; want %q after only", db, oldDef, def, wantDef)
		}
		t.Logf("%s: claim index %q -> %q", db, oldDef, def)
		if db == "postgres" {
			var fn string
			if err := conn.(*pgx.Conn).QueryRow(context.Background(), `SELECT pg_get_functiondef('outbox_notify'::regproc)`).Scan(&fn); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(fn, "pg_try_advisory_xact_lock_shared") {
				t.Fatalf("postgres: after the upgrade the trigger function still notifies on every insert:\n%s", fn)
			}
		}
		closeConn()

		name := map[string]string{"postgres": "pg", "mysql": "my"}[db]
		cfg := templates.Config{Module: mod, DB: db, Broker: "nats", RelayDir: name + "/outboxrelay"}
		rendered, err := templates.Render(cfg, "relay")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rendered {
			files[f.Path] = f.Content
		}
		envVar := "OUTBOXIFY_UPGRADETEST_" + strings.ToUpper(name)
		env = append(env, envVar+"="+dsn)
		var b bytes.Buffer
		if err := tmpl.Execute(&b, map[string]string{"DB": db, "EnvVar": envVar, "Table": "outbox",
			"Pending": strings.Join(pending, ","), "Blocked": upgradeRows[3].id, "DeadB": upgradeRows[2].id,
			"First": upgradeRows[1].id, "Second": upgradeRows[4].id,
			"StatsPending": fmt.Sprint(len(pending) + 1), "StatsDead": fmt.Sprint(bulkDead + 1)}); err != nil {
			t.Fatal(err)
		}
		files[name+"/outboxrelay/upgrade_test.go"] = b.Bytes()
	}
	start := time.Now()
	goTest(t, testmod.New(t, mod, files), env, "relay on upgraded schemas")
	t.Logf("inner tests took %s", time.Since(start).Round(time.Millisecond))
}
