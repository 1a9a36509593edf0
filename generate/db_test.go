package generate_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"text/template"
	"time"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"

	"github.com/outboxify/outboxify/internal/testenv"
	"github.com/outboxify/outboxify/internal/testmod"
	"github.com/outboxify/outboxify/templates"
)

// migrationSQL returns the up and down SQL of the rendered outbox migration
// in any format (atlas has no down file: its reverse is goose's).
func migrationSQL(t *testing.T, cfg templates.Config) (up, down string) {
	t.Helper()
	files, err := templates.Render(cfg, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		s := string(f.Content)
		switch {
		case strings.HasSuffix(f.Path, ".up.sql"):
			up = s
		case strings.HasSuffix(f.Path, ".down.sql"):
			down = s
		case cfg.Migrations == "goose":
			u, d, ok := strings.Cut(s, "-- +goose Down")
			if !ok {
				t.Fatalf("%s: no -- +goose Down", f.Path)
			}
			up, down = u, d
		case cfg.Migrations == "atlas":
			up = s
			g := cfg
			g.Migrations = "goose"
			_, down = migrationSQL(t, g)
		}
	}
	if up == "" || down == "" {
		t.Fatalf("%+v: migration up or down missing in %d files", cfg, len(files))
	}
	return up, down
}

// execScript runs a migration script. PostgreSQL takes several statements
// in one simple-protocol Exec; for MySQL the DSN enables multiStatements.
func execScript(t *testing.T, db string, conn any, script string) {
	t.Helper()
	ctx := context.Background()
	var err error
	switch db {
	case "postgres":
		_, err = conn.(*pgx.Conn).Exec(ctx, script)
	default:
		_, err = conn.(*sql.DB).ExecContext(ctx, script)
	}
	if err != nil {
		t.Fatalf("apply migration: %v\n%s", err, script)
	}
}

func tableNames(t *testing.T, db string, conn any) []string {
	t.Helper()
	q := `SELECT table_name FROM information_schema.tables WHERE table_schema = %s ORDER BY table_name`
	var names []string
	switch db {
	case "postgres":
		rows, err := conn.(*pgx.Conn).Query(context.Background(), fmt.Sprintf(q, "current_schema()"))
		if err != nil {
			t.Fatal(err)
		}
		names, err = pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
	default:
		rows, err := conn.(*sql.DB).Query(fmt.Sprintf(q, "DATABASE()"))
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			names = append(names, n)
		}
	}
	return names
}

// openDB creates a fresh database for the test and connects to it.
func openDB(t *testing.T, db string) (conn any, dsn string, closeConn func()) {
	t.Helper()
	switch db {
	case "postgres":
		dsn = testenv.PostgresDB(t)
		c, err := pgx.Connect(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		return c, dsn, func() { c.Close(context.Background()) }
	default:
		dsn = testenv.MySQLDB(t)
		c, err := sql.Open("mysql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		c.SetMaxOpenConns(1)
		return c, dsn, func() { c.Close() }
	}
}

// migratedDB is a fresh database of cfg.DB with cfg's outbox migration
// applied; it returns its DSN.
func migratedDB(t *testing.T, cfg templates.Config) string {
	t.Helper()
	conn, dsn, closeConn := openDB(t, cfg.DB)
	defer closeConn()
	up, _ := migrationSQL(t, cfg)
	execScript(t, cfg.DB, conn, up)
	return dsn
}

// TestMigrationsUpDownUp applies every migration format's outbox migration
// to the real PostgreSQL and MariaDB: up, down, up, and down again to leave
// room for the next format.
func TestMigrationsUpDownUp(t *testing.T) {
	for _, db := range []string{"postgres", "mysql"} {
		t.Run(db, func(t *testing.T) {
			conn, dsn, closeConn := openDB(t, db)
			defer closeConn()
			for _, format := range []string{"sql", "goose", "migrate", "atlas"} {
				for _, relay := range []string{"polling", "debezium"} {
					notify := "trigger"
					if db == "mysql" {
						notify = "off"
					}
					cfg := templates.Config{Module: "example.com/m", DB: db, Migrations: format, Relay: relay, Notify: notify}
					up, down := migrationSQL(t, cfg)
					want := []string{"inbox", "outbox"}
					if db == "mysql" {
						want = []string{"inbox", "outbox", "outbox_aggregate_lock"}
					}
					for i, step := range []string{up, down, up} {
						execScript(t, db, conn, step)
						got := tableNames(t, db, conn)
						if i == 1 {
							if len(got) != 0 {
								t.Fatalf("%s %s: after down, tables %v remain", format, relay, got)
							}
						} else if strings.Join(got, ",") != strings.Join(want, ",") {
							t.Fatalf("%s %s: after up, tables %v, want %v", format, relay, got, want)
						}
					}
					if db == "postgres" && relay == "polling" {
						checkNotify(t, conn.(*pgx.Conn), dsn)
					}
					execScript(t, db, conn, down)
				}
			}
		})
	}
}

// checkNotify: with no relay idling (no one holds the idle lock) an insert
// sends no NOTIFY (schema 4); while another session holds the idle lock
// exclusively, as an idling relay does, an insert of two rows in one
// statement sends exactly one, on channel outbox with the constant payload.
func checkNotify(t *testing.T, conn *pgx.Conn, dsn string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := conn.Exec(ctx, "LISTEN outbox"); err != nil {
		t.Fatal(err)
	}
	insert := func() {
		t.Helper()
		if _, err := conn.Exec(ctx, `INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload)
		VALUES (gen_random_uuid(), 'order', '1', 'OrderPlaced', '{}'), (gen_random_uuid(), 'order', '2', 'OrderPlaced', '{}')`); err != nil {
			t.Fatal(err)
		}
	}
	none := func(what string) {
		t.Helper()
		short, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		if n, err := conn.WaitForNotification(short); err == nil {
			t.Fatalf("%s: notification %+v", what, n)
		}
	}
	insert()
	none("no relay idles, yet the insert notified")

	relay, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer relay.Close(context.Background())
	if _, err := relay.Exec(ctx, "SELECT pg_advisory_lock($1::int4, 0)", templates.IdleLockClass("outbox")); err != nil {
		t.Fatal(err)
	}
	insert()
	n, err := conn.WaitForNotification(ctx)
	if err != nil {
		t.Fatalf("no NOTIFY after insert while a relay idles: %v", err)
	}
	if n.Channel != "outbox" || n.Payload != "outbox" {
		t.Fatalf("notification %q %q, want channel outbox, payload outbox", n.Channel, n.Payload)
	}
	none("a second notification for one statement: the trigger must be FOR EACH STATEMENT")
	if _, err := relay.Exec(ctx, "SELECT pg_advisory_unlock($1::int4, 0)", templates.IdleLockClass("outbox")); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(context.Background(), "UNLISTEN outbox"); err != nil {
		t.Fatal(err)
	}
}

// TestWriterAndInboxAgainstDatabases renders the writer and inbox for every
// driver on both databases into one temporary module with a test package
// per combination (testdata/dbtest.go.tmpl), applies the migration to a
// fresh database each, and runs them all with one go test.
func TestWriterAndInboxAgainstDatabases(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	type combo struct{ db, driver, relay string }
	var combos []combo
	for _, db := range []string{"postgres", "mysql"} {
		for _, driver := range []string{"database/sql", "pgx", "sqlx", "gorm"} {
			if db == "mysql" && driver == "pgx" {
				continue
			}
			combos = append(combos, combo{db, driver, "polling"})
		}
		combos = append(combos, combo{db, "database/sql", "debezium"})
	}
	t.Parallel()
	// Redis: the writer's stream fields are checked against go-redis's own XAdd.
	env := []string{"OUTBOXIFY_REDIS_ADDR=" + testenv.Require(t, testenv.Redis)}
	tmplText, err := os.ReadFile("testdata/dbtest.go.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("dbtest").Delims("[[", "]]").Parse(string(tmplText)))
	const mod = "example.com/dbtest"
	files := map[string][]byte{}
	nonWord := regexp.MustCompile(`\W`)
	for _, c := range combos {
		name := nonWord.ReplaceAllString(fmt.Sprintf("%s_%s_%s", c.db, c.driver, c.relay), "")
		cfg := templates.Config{Module: mod + "/" + name, DB: c.db, Driver: c.driver, Relay: c.relay, Broker: "nats"}
		dsn := migratedDB(t, templates.Config{Module: cfg.Module, DB: c.db, Migrations: "sql", Relay: c.relay, Notify: "off"})
		rendered, err := templates.Render(cfg, "outbox", "inbox")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rendered {
			files[name+"/"+f.Path] = f.Content
		}
		envVar := "OUTBOXIFY_DBTEST_" + strings.ToUpper(name)
		env = append(env, envVar+"="+dsn)
		var b bytes.Buffer
		if err := tmpl.Execute(&b, map[string]string{"DB": c.db, "Driver": c.driver, "Relay": c.relay, "Module": cfg.Module,
			"EnvVar": envVar, "Table": "outbox", "InboxTable": "inbox"}); err != nil {
			t.Fatal(err)
		}
		files[name+"/dbtest/db_test.go"] = b.Bytes()
	}
	goTest(t, testmod.New(t, mod, files), env, "generated writer/inbox tests")
}

// goTest runs go test over a temporary module with env added, logs each
// test's result lines and fails with the whole output on failure.
func goTest(t *testing.T, dir string, env []string, what string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"test", "-count=1", "-v"}, append(args, "./...")...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off"), env...)
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "_test.go:") || strings.HasPrefix(line, "ok") || strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "---") {
			t.Log(line)
		}
	}
	if err != nil {
		t.Fatalf("%s failed: %v\n%s", what, err, out)
	}
}

// TestConsumerGlueAgainstBrokers renders the inbox for six brokers and runs
// testdata/brokertest.go.tmpl against the machine's NATS JetStream, RabbitMQ
// and Redis, Kafka in-process (kfake), Pub/Sub (pstest) and SQS FIFO (an
// in-test fake of its JSON protocol), each with its own PostgreSQL
// database, and the first four again on MariaDB (the serialization-failure
// test), in one go test over one temporary module. OUTBOXIFY_LONG=1 (passed
// through) runs the outage test at full size: 5,000 messages over 50
// aggregates, a 10 s outage. OUTBOXIFY_GLUE_BROKERS (a comma-separated list
// such as franz-go,sqs) and OUTBOXIFY_GLUE_RUN (a -run pattern for the
// generated tests) narrow a run.
func TestConsumerGlueAgainstBrokers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	t.Parallel()
	env := []string{
		"OUTBOXIFY_NATS_URL=" + testenv.Require(t, testenv.NATS),
		"OUTBOXIFY_AMQP_URL=" + testenv.Require(t, testenv.RabbitMQ),
		"OUTBOXIFY_REDIS_ADDR=" + testenv.Require(t, testenv.Redis),
	}
	tmplText, err := os.ReadFile("testdata/brokertest.go.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("brokertest").Delims("[[", "]]").Parse(string(tmplText)))
	const mod = "example.com/brokertest"
	files := map[string][]byte{}
	type variant struct{ broker, db string }
	var variants []variant
	for _, broker := range []string{"jetstream", "amqp091", "redis", "franz-go", "pubsub", "sqs"} {
		variants = append(variants, variant{broker, "postgres"})
	}
	// MariaDB: the serialization-failure test only (SIGNAL SQLSTATE '40001').
	for _, broker := range []string{"jetstream", "amqp091", "redis", "franz-go"} {
		variants = append(variants, variant{broker, "mysql"})
	}
	only := map[string]bool{}
	if v := os.Getenv("OUTBOXIFY_GLUE_BROKERS"); v != "" {
		for _, b := range strings.Split(v, ",") {
			only[b] = true
		}
	}
	for _, v := range variants {
		broker := v.broker
		if len(only) > 0 && !only[broker] {
			continue
		}
		name := strings.ReplaceAll(broker, "-", "")
		if v.db != "postgres" {
			name += v.db
		}
		cfg := templates.Config{Module: mod + "/" + name, DB: v.db, Driver: "database/sql", Broker: broker}
		dsn := migratedDB(t, templates.Config{Module: cfg.Module, DB: v.db, Migrations: "sql", Notify: "off"})
		rendered, err := templates.Render(cfg, "inbox")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rendered {
			files[name+"/"+f.Path] = f.Content
		}
		envVar := "OUTBOXIFY_BROKERTEST_" + strings.ToUpper(name)
		env = append(env, envVar+"="+dsn)
		var b bytes.Buffer
		if err := tmpl.Execute(&b, map[string]string{"Broker": broker, "DB": v.db, "Module": cfg.Module, "EnvVar": envVar}); err != nil {
			t.Fatal(err)
		}
		files[name+"/brokertest/broker_test.go"] = b.Bytes()
	}
	var args []string
	if run := os.Getenv("OUTBOXIFY_GLUE_RUN"); run != "" {
		args = append(args, "-run", run)
	}
	goTest(t, testmod.New(t, mod, files), env, "generated consumer glue tests", args...)
}

// TestUnitOfWorkAgainstDatabases renders the outbox writer (with its unit of
// work) for database/sql, gorm, pgx, pgx v4 and sqlx on PostgreSQL and MariaDB and runs
// testdata/unittest.go.tmpl against a fresh database each: commit writes the
// business row and the outbox row in one transaction (same xmin), an error or
// a panic leaves neither, a swallowed inner error rolls the unit back, a unit
// without a write publishes directly after success, OUTBOX_DIRECT=1 publishes
// directly, and a second pool is ErrOtherDB (database/sql, gorm, pgx, sqlx).
func TestUnitOfWorkAgainstDatabases(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	t.Parallel()
	type combo struct{ db, driver string }
	combos := []combo{{"postgres", "database/sql"}, {"postgres", "gorm"}, {"postgres", "pgx"}, {"postgres", "pgx4"}, {"postgres", "sqlx"},
		{"mysql", "database/sql"}, {"mysql", "gorm"}, {"mysql", "sqlx"}}
	tmplText, err := os.ReadFile("testdata/unittest.go.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("unittest").Delims("[[", "]]").Parse(string(tmplText)))
	const mod = "example.com/unittest"
	files := map[string][]byte{}
	var env []string
	nonWord := regexp.MustCompile(`\W`)
	for _, c := range combos {
		name := nonWord.ReplaceAllString(c.db+"_"+c.driver, "")
		cfg := templates.Config{Module: mod + "/" + name, DB: c.db, Driver: c.driver, Drivers: []string{"database/sql"}, Broker: "nats", PgxPool: true, PgxV4Pool: true}
		dsn := migratedDB(t, templates.Config{Module: cfg.Module, DB: c.db, Migrations: "sql", Notify: "off"})
		rendered, err := templates.Render(cfg, "outbox")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rendered {
			files[name+"/"+f.Path] = f.Content
		}
		envVar := "OUTBOXIFY_UNITTEST_" + strings.ToUpper(name)
		env = append(env, envVar+"="+dsn)
		var b bytes.Buffer
		if err := tmpl.Execute(&b, map[string]string{"DB": c.db, "Driver": c.driver, "Module": cfg.Module, "EnvVar": envVar}); err != nil {
			t.Fatal(err)
		}
		files[name+"/unittest/unit_test.go"] = b.Bytes()
	}
	goTest(t, testmod.New(t, mod, files), env, "generated unit of work tests")
}
