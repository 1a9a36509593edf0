package templates_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/outboxify/outboxify/generate"
	"github.com/outboxify/outboxify/templates"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenComponents are the templates generate owns; the relay and ops
// components keep goldens of their own.
var goldenComponents = []string{"migrations", "outbox", "inbox", "debezium", "root"}

// TestGolden renders, through generate's whole pipeline (numbering,
// atlas.sum), every (db, driver, migrations, relay) combination into an
// empty module and compares the files with testdata/golden/<combination>.txtar;
// and the inbox consumer glue of every broker with testdata/golden/inbox_<broker>.txtar.
// go test ./templates/ -update rewrites them; CI fails when they are stale.
func TestGolden(t *testing.T) {
	var names []string
	for _, db := range generate.DBs {
		for _, driver := range generate.Drivers {
			if db == "mysql" && (driver == "pgx" || driver == "pgx4") {
				continue
			}
			for _, mig := range []string{"sql", "goose", "migrate", "atlas"} {
				for _, relay := range generate.Relays {
					cfg := templates.Config{DB: db, Driver: driver, Migrations: mig, Relay: relay, Broker: "nats"}
					name := fmt.Sprintf("%s_%s_%s_%s", db, strings.ReplaceAll(driver, "/", ""), mig, relay)
					names = append(names, name+".txtar")
					checkGolden(t, name, cfg, goldenComponents)
				}
			}
		}
	}
	// A module on go 1.16 writing with every driver: one writer each, in
	// the language and standard library of go 1.16.
	for _, db := range generate.DBs {
		cfg := templates.Config{DB: db, Driver: "database/sql", Drivers: []string{"gorm", "sqlx", "pgx", "pgx4"},
			GoVersion: "1.16", Migrations: "sql", Relay: "polling", Broker: "nats"}
		name := db + "_alldrivers_go116"
		names = append(names, name+".txtar")
		checkGolden(t, name, cfg, []string{"outbox"})
	}
	for _, broker := range generate.Brokers {
		cfg := templates.Config{DB: "postgres", Driver: "database/sql", Migrations: "sql", Relay: "polling", Broker: broker}
		name := "inbox_" + broker
		names = append(names, name+".txtar")
		checkGolden(t, name, cfg, []string{"inbox"})
	}
	// The glue for the other client modules a module may require.
	for _, v := range []struct{ name, broker, module, version string }{
		{"sarama_shopify", "sarama", "github.com/Shopify/sarama", ""},
		{"amqp091_streadway", "amqp091", "github.com/streadway/amqp", ""},
		{"redis_v8", "redis", "github.com/go-redis/redis/v8", ""},
		{"jetstream_legacy", "jetstream", "github.com/nats-io/nats.go", "v1.25.0"},
	} {
		cfg := templates.Config{DB: "postgres", Driver: "database/sql", Migrations: "sql", Relay: "polling", Broker: v.broker,
			BrokerModule: v.module, BrokerVersion: v.version}
		name := "inbox_" + v.name
		names = append(names, name+".txtar")
		checkGolden(t, name, cfg, []string{"inbox"})
	}
	// The upgrade migrations a module generated before schema versions gets
	// (the fixtures in generate/testdata/schema1): only the files written.
	for _, db := range generate.DBs {
		for _, mig := range []string{"sql", "goose", "migrate", "atlas"} {
			name := "upgrade_" + db + "_" + mig
			names = append(names, name+".txtar")
			checkUpgradeGolden(t, name, filepath.Join("..", "generate", "testdata", "schema1", db+"_"+mig))
		}
	}
	// No golden is left over from a combination that no longer exists.
	entries, err := os.ReadDir("testdata/golden")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for _, e := range entries {
		if !want[e.Name()] {
			if *update {
				_ = os.Remove(filepath.Join("testdata/golden", e.Name()))
				continue
			}
			t.Errorf("testdata/golden/%s matches no combination (run go test ./templates/ -update)", e.Name())
		}
	}
}

var goldenNow = func() time.Time { return time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC) }

func checkGolden(t *testing.T, name string, cfg templates.Config, components []string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/svc\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg.DB == "mysql" {
		cfg.Notify = "off"
	}
	cs, err := generate.Plan(dir, cfg, generate.Options{Components: components, Now: goldenNow})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	comment := fmt.Sprintf("outboxify generate --db %s --driver %s --migrations %s --relay %s --broker %s\n",
		cfg.DB, cfg.Driver, cfg.Migrations, cfg.Relay, cfg.Broker)
	if cfg.BrokerModule != "" {
		comment += strings.TrimSpace("in a module requiring "+cfg.BrokerModule+" "+cfg.BrokerVersion) + "\n"
	}
	ar := &txtar.Archive{Comment: []byte(comment)}
	for _, ch := range cs.Changes {
		ar.Files = append(ar.Files, txtar.File{Name: ch.Path, Data: ch.New})
	}
	compareGolden(t, name, txtar.Format(ar))
}

// checkUpgradeGolden copies the module in fixture, re-runs generate's
// migrations there and records the files the run would write.
func checkUpgradeGolden(t *testing.T, name, fixture string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := generate.Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := generate.Plan(dir, cfg, generate.Options{Components: []string{"migrations"}, Now: goldenNow})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ar := &txtar.Archive{Comment: []byte(fmt.Sprintf("outboxify generate on %s (outbox schema 1): the files it writes\n", filepath.ToSlash(fixture)))}
	for _, ch := range cs.Changes {
		if ch.Action != generate.Unchanged {
			ar.Files = append(ar.Files, txtar.File{Name: ch.Action.String() + " " + ch.Path, Data: ch.New})
		}
	}
	compareGolden(t, name, txtar.Format(ar))
}

func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txtar")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%s: %v (run go test ./templates/ -update)", name, err)
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale: the templates render differently (inspect with git diff after go test ./templates/ -update)\n%s", path, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first differing line, enough to find the change.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  golden:   %q\n  rendered: %q", i+1, wl, gl)
		}
	}
	return ""
}
