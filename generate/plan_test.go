package generate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/outboxify/outboxify/templates"
)

var fixedNow = func() time.Time { return time.Date(2026, 12, 2, 15, 0, 0, 0, time.UTC) }

// writeTree writes files (slash paths) under a fresh temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// snapshot reads every file under dir (slash path -> content).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, before, after map[string]string) {
	t.Helper()
	for p, c := range before {
		if a, ok := after[p]; !ok || a != c {
			t.Errorf("%s changed or removed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s was created", p)
		}
	}
}

// The atlas.sum in testdata/atlas was written by ariga.io/atlas v1.1.0's
// own migrate.NewHashFile (through LocalDir.Checksum and MarshalText) for
// the .sql files beside it, including one marked "atlas:sum ignore".
func TestAtlasSumMatchesAtlas(t *testing.T) {
	files := map[string][]byte{}
	entries, err := os.ReadDir("testdata/atlas")
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata/atlas", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "atlas.sum" {
			want = b
			continue
		}
		files[e.Name()] = b
	}
	if got := atlasSum(files); string(got) != string(want) {
		t.Fatalf("atlas.sum:\n%s\nwant (atlas's own):\n%s", got, want)
	}
}

func TestNextVersion(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"empty", nil, "000001"},
		{"sequence keeps width", []string{"0001_a.sql", "0002_b.sql", "0002_b.down.sql"}, "0003"},
		{"sequence of migrate pairs", []string{"000009_a.up.sql", "000009_a.down.sql"}, "000010"},
		{"sequence grows past width", []string{"9_a.sql"}, "10"},
		{"timestamps take now", []string{"20240101000000_a.sql"}, "20261202150000"},
		{"timestamps after a future one", []string{"20991231235959_a.sql"}, "20991231235960"},
		{"other files ignored", []string{"README.md", "atlas.sum"}, "000001"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for _, f := range tc.files {
				files[f] = "--\n"
			}
			if got := nextVersion(writeTree(t, files), fixedNow()); got != tc.want {
				t.Fatalf("nextVersion = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	const mod = "module example.com/svc\n\ngo 1.26\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  templates.Config // only the fields set are compared
	}{
		{"defaults", map[string]string{"go.mod": mod},
			templates.Config{DB: "postgres", Driver: "database/sql", Broker: "nats", Migrations: "sql", MigrationsDir: "migrations"}},
		{"pgx native, kafka-go, goose", map[string]string{
			"go.mod":                   mod + "require (\n\tgithub.com/jackc/pgx/v5 v5.13.0\n\tgithub.com/segmentio/kafka-go v0.4.51\n)\n",
			"main.go":                  "package main\n\nimport _ \"github.com/jackc/pgx/v5/pgxpool\"\n",
			"db/migrations/1_a.sql":    "-- +goose Up\nCREATE TABLE a(id int);\n-- +goose Down\nDROP TABLE a;\n",
			"db/migrations/2_b.sql":    "-- +goose Up\nSELECT 1;\n",
			"internal/x/testdata/x.go": "package x\n\nimport _ \"gorm.io/gorm\"\n",
		}, templates.Config{DB: "postgres", Driver: "pgx", Broker: "kafka-go", Migrations: "goose", MigrationsDir: "db/migrations"}},
		{"indirect requirements are not evidence; imports come first", map[string]string{
			"go.mod":  mod + "require (\n\tgithub.com/nats-io/nats.go v1.56.0\n\tgithub.com/jackc/pgx/v5 v5.13.0\n\tgithub.com/segmentio/kafka-go v0.4.51 // indirect\n\tgorm.io/gorm v1.31.2 // indirect\n\tgithub.com/IBM/sarama v1.61.1\n)\n",
			"main.go": "package main\n\nimport (\n\t_ \"github.com/jackc/pgx/v5/stdlib\"\n\t_ \"github.com/nats-io/nats.go\"\n)\n",
		}, templates.Config{DB: "postgres", Driver: "database/sql", Broker: "nats"}},
		{"pgx through database/sql", map[string]string{
			"go.mod":  mod + "require github.com/jackc/pgx/v5 v5.13.0\n",
			"main.go": "package main\n\nimport _ \"github.com/jackc/pgx/v5/stdlib\"\n",
		}, templates.Config{Driver: "database/sql"}},
		{"mysql gorm amqp migrate pairs", map[string]string{
			"go.mod":                   mod + "require (\n\tgorm.io/gorm v1.31.2\n\tgorm.io/driver/mysql v1.6.0\n\tgithub.com/rabbitmq/amqp091-go v1.17.0\n)\n",
			"sql/000001_init.up.sql":   "CREATE TABLE a(id int);",
			"sql/000001_init.down.sql": "DROP TABLE a;",
		}, templates.Config{DB: "mysql", Driver: "gorm", Broker: "amqp091", Migrations: "migrate", MigrationsDir: "sql"}},
		{"sqlx sarama atlas", map[string]string{
			"go.mod":    mod + "require (\n\tgithub.com/jmoiron/sqlx v1.4.0\n\tgithub.com/lib/pq v1.10.9\n\tgithub.com/IBM/sarama v1.61.1\n)\n",
			"atlas.hcl": "env \"local\" {\n  migration {\n    dir = \"file://schema/migrations\"\n  }\n}\n",
		}, templates.Config{DB: "postgres", Driver: "sqlx", Broker: "sarama", Migrations: "atlas"}},
		{"jetstream via import, sqlc schema dir", map[string]string{
			"go.mod":    mod + "require github.com/nats-io/nats.go v1.56.0\n",
			"bus.go":    "package main\n\nimport _ \"github.com/nats-io/nats.go/jetstream\"\n",
			"sqlc.yaml": "version: \"2\"\nsql:\n  - engine: \"postgresql\"\n    schema: \"db/schema\"\n    queries: \"db/query\"\n",
		}, templates.Config{Broker: "jetstream", MigrationsDir: "db/schema"}},
		{"Makefile names goose and its dir", map[string]string{
			"go.mod":   mod,
			"Makefile": "migrate-up:\n\tgoose -dir sql/schema postgres \"$(DB_URL)\" up\n",
		}, templates.Config{Migrations: "goose", MigrationsDir: "sql/schema"}},
		{"Makefile names golang-migrate", map[string]string{
			"go.mod":   mod,
			"Makefile": "up:\n\tmigrate -path=db/mig -database $(DB) up\n",
		}, templates.Config{Migrations: "migrate", MigrationsDir: "db/mig"}},
		{"sqlc schema as a YAML list", map[string]string{
			"go.mod":   mod,
			"sqlc.yml": "version: \"2\"\nsql:\n  - engine: mysql\n    schema:\n      - \"internal/db/migrations\"\n",
		}, templates.Config{MigrationsDir: "internal/db/migrations"}},
		{"pgx v4 pool with pgconn required directly: the unit's PgxV4", map[string]string{
			"go.mod":  mod + "require (\n\tgithub.com/jackc/pgx/v4 v4.18.3\n\tgithub.com/jackc/pgconn v1.14.3\n)\n",
			"main.go": "package main\n\nimport _ \"github.com/jackc/pgx/v4/pgxpool\"\n",
		}, templates.Config{Driver: "pgx4", PgxV4Pool: true}},
		{"pgx v4 pool, pgconn only indirect: no PgxV4 (go.mod would change)", map[string]string{
			"go.mod":  mod + "require (\n\tgithub.com/jackc/pgx/v4 v4.18.3\n\tgithub.com/jackc/pgconn v1.14.3 // indirect\n)\n",
			"main.go": "package main\n\nimport _ \"github.com/jackc/pgx/v4/pgxpool\"\n",
		}, templates.Config{Driver: "pgx4"}},
		{"confluent maps to franz-go", map[string]string{
			"go.mod": mod + "require github.com/confluentinc/confluent-kafka-go/v2 v2.3.0\n",
		}, templates.Config{Broker: "franz-go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, det, err := Detect(writeTree(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			check := func(field, got, want string) {
				if want != "" && got != want {
					t.Errorf("%s = %q, want %q\n%s", field, got, want, det)
				}
			}
			check("DB", cfg.DB, tc.want.DB)
			check("Driver", cfg.Driver, tc.want.Driver)
			check("Broker", cfg.Broker, tc.want.Broker)
			check("Migrations", cfg.Migrations, tc.want.Migrations)
			check("MigrationsDir", cfg.MigrationsDir, tc.want.MigrationsDir)
			if cfg.Driver == "pgx4" && cfg.PgxV4Pool != tc.want.PgxV4Pool {
				t.Errorf("PgxV4Pool = %v, want %v", cfg.PgxV4Pool, tc.want.PgxV4Pool)
			}
			if cfg.Module != "example.com/svc" || !strings.Contains(det.String(), "driver:") {
				t.Errorf("module %q, detection:\n%s", cfg.Module, det)
			}
		})
	}
}

func TestDetectNotAModule(t *testing.T) {
	_, _, err := Detect(t.TempDir())
	if !errors.Is(err, ErrNotModule) {
		t.Fatalf("err = %v, want ErrNotModule", err)
	}
}

func plan(t *testing.T, dir string, cfg templates.Config) *Changeset {
	t.Helper()
	det, _, err := Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := Plan(dir, Override(det, cfg), Options{Now: fixedNow, Components: []string{"migrations", "outbox", "inbox", "debezium"}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func actions(cs *Changeset) map[Action]int {
	n := map[Action]int{}
	for _, ch := range cs.Changes {
		n[ch.Action]++
	}
	return n
}

func TestApplyRerunConflictForce(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/svc\n\ngo 1.26\n"})
	cs := plan(t, dir, templates.Config{})
	if n := actions(cs); n[Create] == 0 || n[Create] != len(cs.Changes) {
		t.Fatalf("first run: %v, want every file created", n)
	}
	if err := cs.Apply(false); err != nil {
		t.Fatal(err)
	}
	first := snapshot(t, dir)
	if _, ok := first[ManifestPath]; !ok {
		t.Fatal("no manifest written")
	}

	// Re-run: nothing to do, nothing written.
	cs = plan(t, dir, templates.Config{})
	if n := actions(cs); n[Unchanged] != len(cs.Changes) || cs.Pending(false) {
		t.Fatalf("re-run: %v, want all unchanged\n%s", n, cs.Summary())
	}
	if err := cs.Apply(false); err != nil {
		t.Fatal(err)
	}
	sameTree(t, first, snapshot(t, dir))

	// A person edits a generated file; a flag adds a new file (Debezium).
	edited := filepath.Join(dir, "internal", "outbox", "outbox.go")
	if err := os.WriteFile(edited, []byte("package outbox // mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	cs = plan(t, dir, templates.Config{Relay: "debezium"})
	if got := cs.Conflicts(); len(got) != 1 || got[0].Path != "internal/outbox/outbox.go" {
		t.Fatalf("conflicts %v, want internal/outbox/outbox.go\n%s", got, cs.Summary())
	}
	var ce *ConflictError
	if err := cs.Apply(false); !errors.As(err, &ce) {
		t.Fatalf("Apply without force: %v, want a ConflictError", err)
	}
	sameTree(t, before, snapshot(t, dir)) // nothing partially written
	if !strings.Contains(Diff(cs), "-package outbox // mine") {
		t.Fatalf("diff does not show the edit:\n%s", Diff(cs))
	}

	// A template change of a file outboxify wrote (manifest hash matches) is an update.
	cs = plan(t, dir, templates.Config{Relay: "debezium"})
	for _, ch := range cs.Changes {
		if ch.Path == "internal/outbox/insert.go" && ch.Action != Update {
			t.Fatalf("insert.go: %s, want update (generated, not edited)", ch.Action)
		}
		if ch.Component == "migrations" && ch.Action != Keep {
			t.Fatalf("%s: %s, want keep (an existing outbox migration is never rewritten without force)", ch.Path, ch.Action)
		}
	}

	if err := cs.Apply(true); err != nil {
		t.Fatal(err)
	}
	cs = plan(t, dir, templates.Config{Relay: "debezium"})
	if n := actions(cs); n[Unchanged] != len(cs.Changes) {
		t.Fatalf("after --force: %v\n%s", n, cs.Summary())
	}
}

func TestApplyIsAtomic(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/svc\n\ngo 1.26\n"})
	before := snapshot(t, dir)
	cs := plan(t, dir, templates.Config{})
	// A directory appears where a generated file must go: its rename fails
	// after other files were already placed.
	if err := os.MkdirAll(filepath.Join(dir, "internal", "outbox", "outbox.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	before["internal/outbox/outbox.go/"] = ""
	if err := cs.Apply(false); err == nil {
		t.Fatal("Apply succeeded over a directory")
	}
	delete(before, "internal/outbox/outbox.go/")
	sameTree(t, before, snapshot(t, dir))
	if _, err := os.Stat(filepath.Join(dir, "migrations")); !os.IsNotExist(err) {
		t.Fatalf("migrations directory left behind: %v", err)
	}
}

func TestMigrationRerunAndNumbering(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":                             "module example.com/svc\n\ngo 1.26\nrequire github.com/pressly/goose/v3 v3.26.0\n",
		"migrations/20240101000000_init.sql": "-- +goose Up\nCREATE TABLE a(id int);\n",
	})
	cs := plan(t, dir, templates.Config{})
	if err := cs.Apply(false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "migrations", "20261202150000_outbox.sql")); err != nil {
		t.Fatalf("goose migration not numbered by timestamp: %v\n%s", err, cs.Summary())
	}
	// Later, another migration is added; a re-run keeps the outbox one.
	if err := os.WriteFile(filepath.Join(dir, "migrations", "20270101000000_more.sql"), []byte("-- +goose Up\nSELECT 1;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs = plan(t, dir, templates.Config{})
	if cs.Pending(false) {
		t.Fatalf("re-run would write:\n%s", cs.Summary())
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "migrations"))
	if len(entries) != 3 {
		t.Fatalf("%d migration files, want 3 (no second outbox migration)", len(entries))
	}
}

func TestAtlasSumRewritten(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":                             "module example.com/svc\n\ngo 1.26\n",
		"atlas.hcl":                          "env \"dev\" {\n  migration {\n    dir = \"file://migrations\"\n  }\n}\n",
		"migrations/20240101000000_init.sql": "CREATE TABLE a(id int);\n",
		"migrations/atlas.sum":               "h1:stale\n20240101000000_init.sql h1:stale\n",
	})
	cs := plan(t, dir, templates.Config{})
	if err := cs.Apply(false); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	entries, _ := os.ReadDir(filepath.Join(dir, "migrations"))
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, "migrations", e.Name()))
		files[e.Name()] = b
	}
	if len(files) != 3 {
		t.Fatalf("migration dir holds %d files, want init, outbox, atlas.sum", len(files))
	}
	if got, want := string(files["atlas.sum"]), string(atlasSum(files)); got != want || !strings.Contains(got, "_outbox.sql h1:") {
		t.Fatalf("atlas.sum:\n%s\nwant:\n%s", got, want)
	}
}

func TestOutDir(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/svc\n\ngo 1.26\n"})
	cfg, _, err := Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := Plan(dir, cfg, Options{Out: "services/orders", Now: fixedNow, Components: []string{"outbox", "migrations"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range cs.Changes {
		if !strings.HasPrefix(ch.Path, "services/orders/") {
			t.Errorf("%s is not under --out", ch.Path)
		}
	}
	if got := cs.Config.ImportPath(cs.Config.OutboxDir); got != "example.com/svc/services/orders/internal/outbox" {
		t.Errorf("outbox import path %s", got)
	}
	if err := cs.Apply(false); err != nil {
		t.Fatal(err)
	}
	// The next run reads --out back; directories are not prefixed twice.
	cfg, det, err := Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if det.Out != "services/orders" || cfg.MigrationsDir != "migrations" {
		t.Fatalf("last run: out %q, migrations dir %q", det.Out, cfg.MigrationsDir)
	}
	again, err := Plan(dir, cfg, Options{Out: det.Out, Now: fixedNow, Components: []string{"outbox", "migrations"}})
	if err != nil {
		t.Fatal(err)
	}
	if again.Pending(false) {
		t.Fatalf("re-run with the recorded --out would write:\n%s", again.Summary())
	}
	if _, err := Plan(dir, cfg, Options{Out: "../elsewhere"}); err == nil || !strings.Contains(err.Error(), "outside the module") {
		t.Fatalf("--out outside the module: err %v", err)
	}
}

// The generated code's own imports must not change what the next run
// detects: a database/sql project stays database/sql even though generated
// files import pgx natively.
func TestDetectIgnoresGeneratedFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":                         "module example.com/svc\n\ngo 1.26\n\nrequire github.com/jackc/pgx/v5 v5.13.0\n",
		"main.go":                        "package main\n\nimport _ \"github.com/jackc/pgx/v5/stdlib\"\n",
		"internal/outboxrelay/listen.go": "package outboxrelay\n\nimport _ \"github.com/jackc/pgx/v5\"\n",
		ManifestPath:                     `{"files": {"internal/outboxrelay/listen.go": "sha256:x"}}`,
	})
	cfg, det, err := Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Driver != "database/sql" {
		t.Fatalf("driver %s, want database/sql (generated imports ignored)\n%s", cfg.Driver, det)
	}
}

// The NOTIFY default follows the database finally chosen: a MySQL project
// generated with --db postgres gets the trigger.
func TestNotifyFollowsFinalDB(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/svc\n\ngo 1.26\n\nrequire github.com/go-sql-driver/mysql v1.10.2\n"})
	for _, tc := range []struct{ flagDB, want string }{{"", "off"}, {"postgres", "trigger"}} {
		cs := plan(t, dir, templates.Config{DB: tc.flagDB})
		if cs.Config.Notify != tc.want {
			t.Errorf("--db %q: notify %s, want %s", tc.flagDB, cs.Config.Notify, tc.want)
		}
	}
}

// Settings chosen by flags are not detectable from the files; the manifest
// records them so a re-run without flags changes nothing.
func TestRerunWithoutFlagsKeepsSettings(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/svc\n\ngo 1.26\n\nrequire github.com/nats-io/nats.go v1.56.0\n"})
	cs := plan(t, dir, templates.Config{Relay: "debezium", Broker: "jetstream", Driver: "sqlx"})
	if err := cs.Apply(false); err != nil {
		t.Fatal(err)
	}
	cfg, det, err := Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Relay != "debezium" || cfg.Broker != "jetstream" || cfg.Driver != "sqlx" || !strings.Contains(det.String(), "last run") {
		t.Fatalf("re-detected %s/%s/%s\n%s", cfg.Relay, cfg.Broker, cfg.Driver, det)
	}
	if cs := plan(t, dir, templates.Config{}); cs.Pending(false) {
		t.Fatalf("re-run without flags would write:\n%s", cs.Summary())
	}
	// A flag still wins over the last run.
	if cs := plan(t, dir, templates.Config{Driver: "pgx"}); !cs.Pending(false) {
		t.Fatal("--driver pgx after sqlx changes nothing")
	}
}

// TestDetectBrokerClient: the consumer glue is written for the client
// module and version go.mod requires, and left out (inbox core only, go.mod
// unchanged) with a note naming the version it needs when that client is
// below its floor.
func TestDetectBrokerClient(t *testing.T) {
	for _, tc := range []struct {
		name, goLine, requires, code string
		broker, module, version      string
		coreOnly                     bool
		note                         string // a substring of one note; "" wants none about the client
	}{
		{"kafka-go at a v0.4.2x pin", "1.21", "github.com/segmentio/kafka-go v0.4.20", "",
			"kafka-go", "github.com/segmentio/kafka-go", "v0.4.20", false, ""},
		{"kafka-go below its floor", "1.21", "github.com/segmentio/kafka-go v0.4.8", "",
			"kafka-go", "github.com/segmentio/kafka-go", "v0.4.8", true,
			"github.com/segmentio/kafka-go v0.4.8: the inbox's consumer glue needs v0.4.9 or newer; only the inbox core (inbox.Handle) is generated and go.mod is unchanged (go get github.com/segmentio/kafka-go@v0.4.9"},
		{"Shopify sarama", "1.21", "github.com/Shopify/sarama v1.30.0", "",
			"sarama", "github.com/Shopify/sarama", "v1.30.0", false, ""},
		{"Shopify sarama before consumer groups", "1.21", "github.com/Shopify/sarama v1.18.0", "",
			"sarama", "github.com/Shopify/sarama", "v1.18.0", true, "needs v1.19.0 or newer"},
		{"both saramas, Shopify's imported", "1.21", "github.com/IBM/sarama v1.43.0\n\tgithub.com/Shopify/sarama v1.38.1", "import _ \"github.com/Shopify/sarama\"",
			"sarama", "github.com/Shopify/sarama", "v1.38.1", false, ""},
		{"streadway amqp", "1.21", "github.com/streadway/amqp v1.0.0", "",
			"amqp091", "github.com/streadway/amqp", "v1.0.0", false, ""},
		{"amqp091-go v1.1", "1.21", "github.com/rabbitmq/amqp091-go v1.1.0", "",
			"amqp091", "github.com/rabbitmq/amqp091-go", "v1.1.0", false, ""},
		{"go-redis v8", "1.21", "github.com/go-redis/redis/v8 v8.11.5", "",
			"redis", "github.com/go-redis/redis/v8", "v8.11.5", false, ""},
		{"go-redis v8 before XAutoClaim", "1.21", "github.com/go-redis/redis/v8 v8.4.0", "",
			"redis", "github.com/go-redis/redis/v8", "v8.4.0", true, "needs v8.11.1 or newer"},
		{"nats.go without the jetstream package", "1.21", "github.com/nats-io/nats.go v1.20.0", "var _ = nc.JetStream()",
			"jetstream", "github.com/nats-io/nats.go", "v1.20.0", false, "predates its jetstream package (v1.26.0)"},
		{"nats.go before JetStream", "1.21", "github.com/nats-io/nats.go v1.10.0", "var _ = nc.JetStream()",
			"jetstream", "github.com/nats-io/nats.go", "v1.10.0", true, "needs v1.11.0 or newer"},
		{"client_golang below its floor", "1.21", "github.com/segmentio/kafka-go v0.4.51\n\tgithub.com/prometheus/client_golang v0.9.1", "",
			"kafka-go", "github.com/segmentio/kafka-go", "v0.4.51", true, "github.com/prometheus/client_golang v0.9.1: the inbox's consumer glue needs v0.9.2 or newer"},
		{"paho MQTT: no consumer glue for the broker", "1.21", "github.com/eclipse/paho.mqtt.golang v1.5.0", "",
			"mqtt", "github.com/eclipse/paho.mqtt.golang", "v1.5.0", true,
			"broker mqtt: the inbox has no consumer glue for it; only the inbox core (inbox.Handle) is generated"},
		{"go line below the glue's: no floor note", "1.20", "github.com/segmentio/kafka-go v0.4.8", "",
			"kafka-go", "github.com/segmentio/kafka-go", "v0.4.8", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"go.mod": "module example.com/svc\n\ngo " + tc.goLine + "\n\nrequire (\n\t" + tc.requires + "\n)\n"}
			if tc.code != "" {
				files["bus.go"] = "package main\n\n" + tc.code + "\n"
			}
			cfg, det, err := Detect(writeTree(t, files))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Broker != tc.broker || cfg.BrokerModule != tc.module || cfg.BrokerVersion != tc.version || cfg.InboxCoreOnly != tc.coreOnly {
				t.Errorf("broker %s, client %s %s, core only %v; want %s, %s %s, %v\n%s",
					cfg.Broker, cfg.BrokerModule, cfg.BrokerVersion, cfg.InboxCoreOnly, tc.broker, tc.module, tc.version, tc.coreOnly, det)
			}
			notes := strings.Join(det.Notes, "\n")
			if tc.note != "" && !strings.Contains(notes, tc.note) {
				t.Errorf("notes do not say %q:\n%s", tc.note, notes)
			}
			if tc.note == "" && (strings.Contains(notes, "consumer glue needs v") || strings.Contains(notes, "predates")) {
				t.Errorf("unexpected client note:\n%s", notes)
			}
			rendered, err := templates.Render(cfg, "inbox")
			if err != nil {
				t.Fatal(err)
			}
			glue := false
			for _, f := range rendered {
				glue = glue || strings.Contains(f.Path, "consumer")
			}
			if want := !tc.coreOnly && tc.goLine != "1.20"; glue != want {
				t.Errorf("consumer glue rendered: %v, want %v", glue, want)
			}
		})
	}
}

// TestDetectPartitioner: the Kafka partitioner is read from the producer
// configuration in the module's code, else the client's default.
func TestDetectPartitioner(t *testing.T) {
	const mod = "module example.com/svc\n\ngo 1.26\n"
	req := func(path, v string) string { return mod + "require " + path + " " + v + "\n" }
	const (
		confluent = "github.com/confluentinc/confluent-kafka-go/v2"
		kafkago   = "github.com/segmentio/kafka-go"
		sarama    = "github.com/IBM/sarama"
		franz     = "github.com/twmb/franz-go"
	)
	src := func(imp, body string) string {
		return "package main\n\nimport \"" + imp + "\"\n\nfunc producer() {\n" + body + "\n}\n"
	}
	for _, tc := range []struct {
		name, gomod, code string
		want              string // Partitioner
		note              string // a note must contain it
	}{
		{"confluent default is consistent_random", req(confluent, "v2.11.1"),
			src(confluent+"/kafka", `p, _ := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": "x"}); _ = p`), "crc32", ""},
		{"confluent murmur2_random", req(confluent, "v2.11.1"),
			src(confluent+"/kafka", `p, _ := kafka.NewProducer(&kafka.ConfigMap{"bootstrap.servers": "x", "partitioner": "murmur2_random"}); _ = p`), "murmur2", ""},
		{"confluent fnv1a via SetKey", req(confluent, "v2.11.1"),
			src(confluent+"/kafka", `cm := kafka.ConfigMap{}; _ = cm.SetKey("partitioner", "fnv1a")`), "fnv1a", ""},
		{"kafka-go Hash", req(kafkago, "v0.4.51"),
			src(kafkago, `w := &kafka.Writer{Addr: kafka.TCP("x"), Balancer: &kafka.Hash{}}; _ = w`), "fnv1a", ""},
		{"kafka-go ReferenceHash", req(kafkago, "v0.4.51"),
			src(kafkago, `w := &kafka.Writer{Balancer: &kafka.ReferenceHash{}}; _ = w`), "fnv1a-reference", ""},
		{"kafka-go CRC32Balancer", req(kafkago, "v0.4.51"),
			src(kafkago, `w := kafka.Writer{}; w.Balancer = kafka.CRC32Balancer{Consistent: true}; _ = w`), "crc32", ""},
		{"kafka-go default round robin", req(kafkago, "v0.4.51"),
			src(kafkago, `w := &kafka.Writer{Addr: kafka.TCP("x")}; _ = w`), "murmur2", "RoundRobin"},
		{"sarama default", req(sarama, "v1.61.1"),
			src(sarama, `cfg := sarama.NewConfig(); _ = cfg`), "fnv1a", ""},
		{"sarama reference hash", req(sarama, "v1.61.1"),
			src(sarama, `cfg := sarama.NewConfig(); cfg.Producer.Partitioner = sarama.NewReferenceHashPartitioner`), "fnv1a-reference", ""},
		{"sarama consistent crc", req(sarama, "v1.61.1"),
			src(sarama, `cfg := sarama.NewConfig(); cfg.Producer.Partitioner = sarama.NewConsistentCRCHashPartitioner`), "crc32", ""},
		{"sarama murmur2", req(sarama, "v1.61.1"),
			src(sarama, `cfg := sarama.NewConfig(); cfg.Producer.Partitioner = sarama.NewMurmur2Partitioner`), "murmur2", ""},
		{"franz-go default", req(franz, "v1.22.3"),
			src(franz+"/pkg/kgo", `cl, _ := kgo.NewClient(kgo.SeedBrokers("x")); _ = cl`), "murmur2", ""},
		{"franz-go sarama compat", req(franz, "v1.22.3"),
			src(franz+"/pkg/kgo", `cl, _ := kgo.NewClient(kgo.RecordPartitioner(kgo.StickyKeyPartitioner(kgo.SaramaCompatHasher(h)))); _ = cl`), "fnv1a", ""},
		{"not Kafka", req("github.com/nats-io/nats.go", "v1.56.0"), src("github.com/nats-io/nats.go", ""), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, det, err := Detect(writeTree(t, map[string]string{"go.mod": tc.gomod, "producer.go": tc.code}))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Partitioner != tc.want {
				t.Errorf("Partitioner = %q, want %q\n%s", cfg.Partitioner, tc.want, det)
			}
			if tc.want != "" && !strings.Contains(det.String(), "partitioner:") {
				t.Errorf("detection does not show the partitioner:\n%s", det)
			}
			if tc.note != "" && !strings.Contains(det.String(), tc.note) {
				t.Errorf("detection lacks a note with %q:\n%s", tc.note, det)
			}
		})
	}
	if err := Validate(templates.Config{Partitioner: "crc16"}); err == nil {
		t.Error("Validate accepts --partitioner crc16")
	}
	if c := Override(templates.Config{Partitioner: "crc32"}, templates.Config{Partitioner: "murmur2"}); c.Partitioner != "murmur2" {
		t.Errorf("--partitioner murmur2 over detected crc32 gives %q", c.Partitioner)
	}
}

// TestDetectUnsupportedBrokers: a module whose only broker client is one no
// relay publisher speaks gets no default broker; generate refuses and fix
// leaves the relay out, naming the client.
func TestDetectUnsupportedBrokers(t *testing.T) {
	for _, tc := range []struct{ module, pkg, says string }{
		{"github.com/nsqio/go-nsq v1.1.0", "github.com/nsqio/go-nsq", "NSQ"},
		{"github.com/apache/pulsar-client-go v0.19.0", "github.com/apache/pulsar-client-go/pulsar", "Apache Pulsar"},
		{"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus v1.10.0", "github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus", "Azure Service Bus"},
		{"github.com/Azure/azure-sdk-for-go/sdk/messaging/azeventhubs/v2 v2.0.2", "github.com/Azure/azure-sdk-for-go/sdk/messaging/azeventhubs/v2", "Azure Event Hubs"},
		{"github.com/aws/aws-sdk-go v1.55.8", "github.com/aws/aws-sdk-go/service/kinesis", "Kinesis"},
		{"github.com/aws/aws-sdk-go v1.55.8", "github.com/aws/aws-sdk-go/service/eventbridge", "EventBridge"},
		{"github.com/dapr/go-sdk v1.11.0", "github.com/dapr/go-sdk/client", "Dapr"},
		{"github.com/gomodule/redigo v1.9.3", "github.com/gomodule/redigo/redis", "redigo"},
		{"github.com/mediocregopher/radix/v3 v3.8.1", "github.com/mediocregopher/radix/v3", "radix"},
		{"go-micro.dev/v4 v4.11.0", "go-micro.dev/v4/events", "go-micro"},
		{"github.com/redis/rueidis v1.0.80", "github.com/redis/rueidis", "rueidis"},
		{"github.com/Azure/go-amqp v1.7.0", "github.com/Azure/go-amqp", "AMQP 1.0"},
		{"github.com/eclipse/paho.golang v0.23.0", "github.com/eclipse/paho.golang/paho", "paho.golang"},
		{"github.com/riverqueue/river v0.51.2", "github.com/riverqueue/river", "InsertTx"},
	} {
		t.Run(tc.says, func(t *testing.T) {
			dir := writeTree(t, map[string]string{
				"go.mod": "module example.com/svc\n\ngo 1.21\n\nrequire " + tc.module + "\n",
				"bus.go": "package main\n\nimport _ \"" + tc.pkg + "\"\n",
			})
			cfg, det, err := Detect(dir)
			if err != nil {
				t.Fatal(err)
			}
			if why := det.NoBroker(cfg, ""); !strings.Contains(why, tc.says) {
				t.Errorf("NoBroker = %q, want it to name %s", why, tc.says)
			}
		})
	}
}
