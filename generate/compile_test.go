package generate_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/outboxify/outboxify/generate"
	"github.com/outboxify/outboxify/internal/testmod"
	"github.com/outboxify/outboxify/templates"
)

// combo is one rendering of the templates into its own subtree of a shared
// module, so every driver and broker compiles in one go build.
type combo struct{ db, driver, broker, relay string }

// compileCombos covers every driver on both databases and every broker,
// in both relay modes, without the full cross product (which only repeats
// the same files).
func compileCombos() []combo {
	var out []combo
	for _, db := range []string{"postgres", "mysql"} {
		for _, driver := range []string{"database/sql", "pgx", "sqlx", "gorm"} {
			if db == "mysql" && driver == "pgx" {
				continue
			}
			out = append(out, combo{db, driver, "nats", "polling"})
			out = append(out, combo{db, driver, "kafka-go", "debezium"})
		}
	}
	drivers := []string{"database/sql", "pgx", "sqlx", "gorm"}
	for i, broker := range []string{"kafka-go", "franz-go", "sarama", "nats", "jetstream", "amqp091", "redis", "sns", "sqs", "pubsub", "mqtt"} {
		db := []string{"postgres", "mysql"}[i%2]
		driver := drivers[i%len(drivers)]
		if db == "mysql" && driver == "pgx" {
			driver = "database/sql"
		}
		out = append(out, combo{db, driver, broker, "polling"})
	}
	return out
}

func (c combo) dir() string {
	r := strings.NewReplacer("/", "", "-", "")
	return fmt.Sprintf("c_%s_%s_%s_%s", c.db, r.Replace(c.driver), r.Replace(c.broker), c.relay)
}

// TestGeneratedGoCompiles renders every combination into one temporary module
// and runs one go build and one go vet over it.
func TestGeneratedGoCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	t.Parallel()
	const mod = "example.com/gen"
	files := map[string][]byte{}
	for _, c := range compileCombos() {
		cfg := templates.Config{Module: mod + "/" + c.dir(), DB: c.db, Driver: c.driver, Broker: c.broker, Relay: c.relay}
		rendered, err := templates.Render(cfg, componentsUnderTest...)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		for _, f := range rendered {
			if strings.HasSuffix(f.Path, ".go") {
				files[c.dir()+"/"+f.Path] = f.Content
			}
		}
	}
	dir := testmod.New(t, mod, files)
	testmod.Go(t, dir, "build", "./...")
	testmod.Go(t, dir, "vet", "./...")
}

// TestWriterAtClientFloors renders the outbox writer for a module at the
// oldest go line and client versions it supports, and builds and vets it
// there (-mod=readonly: go.mod and go.sum as committed; vet's stdversion
// check holds the code to the module's go line): a go 1.16 module with
// database/sql, sqlx v1.2.0, gorm v1.20.0 and pgx v4.0.0 (with pgconn
// v1.0.0, required directly for the unit's PgxV4 accessor), and a go 1.18
// module with pgx v5.0.0 (pgx v5 needs generics). The newest versions are
// outboxify's own, built by TestGeneratedGoCompiles and TestWriterAllDrivers.
func TestWriterAtClientFloors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code against old client versions")
	}
	t.Parallel()
	for _, c := range []struct {
		dir, goVersion, driver string
		drivers                []string
	}{
		{"floor116", "1.16", "database/sql", []string{"sqlx", "gorm", "pgx4"}},
		{"floor118", "1.18", "pgx", nil},
	} {
		cfg := templates.Config{Module: "example.com/" + c.dir, DB: "postgres", Driver: c.driver, Drivers: c.drivers, GoVersion: c.goVersion, PgxPool: true, PgxV4Pool: true}
		rendered, err := templates.Render(cfg, "outbox")
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", c.dir))); err != nil {
			t.Fatal(err)
		}
		testmod.WriteRendered(t, dir, rendered)
		buildAndVetAsCommitted(t, dir, c.dir)
		// vet's stdversion is silent below go1.21: check the standard
		// library symbols against the module's go line directly.
		tooNew, err := testmod.StdlibTooNew(dir, c.goVersion, "./internal/outbox")
		if err != nil {
			t.Fatalf("%s: %v", c.dir, err)
		}
		for _, s := range tooNew {
			t.Errorf("%s (go %s): uses %s", c.dir, c.goVersion, s)
		}
	}
}

// TestWriterAllDrivers builds the writer with every driver at once (one
// function per driver) against outboxify's (newest) client versions.
func TestWriterAllDrivers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	t.Parallel()
	files := map[string][]byte{}
	for _, db := range []string{"postgres", "mysql"} {
		cfg := templates.Config{Module: "example.com/gen/" + db, DB: db, Driver: "database/sql", Drivers: []string{"sqlx", "gorm", "pgx", "pgx4"}, GoVersion: "1.16", PgxPool: true, PgxV4Pool: true}
		rendered, err := templates.Render(cfg, "outbox")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rendered {
			files[db+"/"+f.Path] = f.Content
		}
	}
	dir := testmod.New(t, "example.com/gen", files)
	testmod.Go(t, dir, "build", "./...")
	testmod.Go(t, dir, "vet", "./...")
}

// glueVariant is one rendering of the inbox's consumer glue: a broker and
// the client module it is written for ("" for the default).
type glueVariant struct {
	dir, broker, module string
	version             string // forced BrokerVersion; "" takes go.mod's
}

// TestInboxGlueAtClientFloors renders the inbox (core and consumer glue)
// for every broker and client module into its own package of committed
// modules and builds and vets them there (-mod=readonly: go.mod and go.sum
// as committed): inboxfloor121, a go 1.21 module (the glue's oldest go line)
// requiring every client at its floor (generate.Floor), nats.go below the
// jetstream package (so JetStream glue is the legacy API); inboxfloor123,
// the clients that need a newer go line at their floors (pubsub v2, and
// nats.go at templates.JetStreamPackage for the jetstream package glue);
// and inboxnewest, every client at its newest release, where the legacy
// JetStream glue must still build (a module that generated it and later
// upgraded nats.go keeps it).
func TestInboxGlueAtClientFloors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code against old client versions")
	}
	t.Parallel()
	atFloor := []glueVariant{
		{"kafkago", "kafka-go", "", ""}, {"franzgo", "franz-go", "", ""},
		{"saramaibm", "sarama", "github.com/IBM/sarama", ""}, {"saramashopify", "sarama", "github.com/Shopify/sarama", ""},
		{"nats", "nats", "", ""}, {"jetstreamlegacy", "jetstream", "", ""},
		{"amqp091", "amqp091", "", ""}, {"streadway", "amqp091", "github.com/streadway/amqp", ""},
		{"redisv9", "redis", "", ""}, {"redisv8", "redis", "github.com/go-redis/redis/v8", ""},
		{"sqs", "sqs", "", ""}, {"sns", "sns", "", ""},
	}
	var newest []glueVariant
	for _, v := range atFloor {
		if v.dir == "jetstreamlegacy" {
			v.version = "v1.25.0" // rendered for a nats.go without the jetstream package
		}
		newest = append(newest, v)
	}
	newest = append(newest, glueVariant{"jetstream", "jetstream", "", ""}, glueVariant{"pubsub", "pubsub", "", ""})
	for _, m := range []struct {
		dir      string
		variants []glueVariant
		// want is the version each client must be required at ("floor":
		// generate.Floor); nil checks nothing (the newest releases).
		want map[string]string
	}{
		{"inboxfloor121", atFloor, map[string]string{
			"github.com/segmentio/kafka-go": "floor", "github.com/twmb/franz-go": "floor",
			"github.com/IBM/sarama": "floor", "github.com/Shopify/sarama": "floor",
			"github.com/nats-io/nats.go": "floor", "github.com/rabbitmq/amqp091-go": "floor", "github.com/streadway/amqp": "floor",
			"github.com/redis/go-redis/v9": "floor", "github.com/go-redis/redis/v8": "floor",
			"github.com/aws/aws-sdk-go-v2/service/sqs": "floor", "github.com/prometheus/client_golang": "floor",
		}},
		{"inboxfloor123", []glueVariant{{"jetstream", "jetstream", "", ""}, {"pubsub", "pubsub", "", ""}}, map[string]string{
			"github.com/nats-io/nats.go": templates.JetStreamPackage, "cloud.google.com/go/pubsub/v2": "floor",
			"github.com/prometheus/client_golang": "floor",
		}},
		{"inboxnewest", newest, nil},
	} {
		t.Run(m.dir, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join("testdata", m.dir)
			data, err := os.ReadFile(filepath.Join(src, "go.mod"))
			if err != nil {
				t.Fatal(err)
			}
			mf, err := modfile.Parse("go.mod", data, nil)
			if err != nil {
				t.Fatal(err)
			}
			required := map[string]string{}
			for _, r := range mf.Require {
				required[r.Mod.Path] = r.Mod.Version
			}
			for path, want := range m.want {
				if want == "floor" {
					want = generate.Floor(path)
				}
				if required[path] != want {
					t.Errorf("%s requires %s %q, want %s (the floor test must build the floor)", m.dir, path, required[path], want)
				}
			}
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			for _, v := range m.variants {
				cfg := templates.Config{Module: "example.com/" + m.dir, DB: "postgres", Driver: "database/sql", GoVersion: mf.Go.Version,
					Broker: v.broker, BrokerModule: v.module, InboxDir: v.dir + "/inbox"}
				mod, err := cfg.ClientModule()
				if err != nil {
					t.Fatal(err)
				}
				cfg.BrokerVersion = required[mod]
				if v.version != "" {
					cfg.BrokerVersion = v.version
				}
				if v.dir == "jetstreamlegacy" != cfg.LegacyJetStream() {
					t.Fatalf("%s: nats.go %s: LegacyJetStream() = %v", v.dir, cfg.BrokerVersion, cfg.LegacyJetStream())
				}
				rendered, err := templates.Render(cfg, "inbox")
				if err != nil {
					t.Fatalf("%s: %v", v.dir, err)
				}
				if len(rendered) < 3 {
					t.Fatalf("%s: rendered %d files, want the inbox core and its consumer glue", v.dir, len(rendered))
				}
				testmod.WriteRendered(t, dir, rendered)
			}
			buildAndVetAsCommitted(t, dir, m.dir)
		})
	}
}

// buildAndVetAsCommitted builds and vets a test module with its go.mod and
// go.sum as committed (-mod=readonly), outside any workspace, with this Go.
func buildAndVetAsCommitted(t *testing.T, dir, name string) {
	t.Helper()
	for _, args := range [][]string{{"build", "./..."}, {"vet", "./..."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOWORK=off", "GOTOOLCHAIN=local")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: go %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
	}
}

// TestInboxMetricsWithoutPrometheus: a module that does not require the
// Prometheus client directly gets consumer glue whose metrics go to expvar
// (issue 17 point 2: service-side code imports only what the module
// requires directly), and it builds and vets; one that requires it gets the
// Prometheus metrics.
func TestInboxMetricsWithoutPrometheus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	const mod = "module example.com/svc\n\ngo 1.21\n\nrequire github.com/nats-io/nats.go v1.56.0\n"
	code := "package main\n\nimport _ \"github.com/nats-io/nats.go\"\n\nfunc main() {}\n"
	for _, tc := range []struct {
		name, gomod string
		expvar      bool
	}{
		{"not required", mod, true},
		{"indirect only", mod + "require github.com/prometheus/client_golang v1.25.0 // indirect\n", true},
		{"required", mod + "require github.com/prometheus/client_golang v1.25.0\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range map[string]string{"go.mod": tc.gomod, "main.go": code} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, _, err := generate.Detect(dir)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.InboxExpvar != tc.expvar || cfg.InboxCoreOnly {
				t.Fatalf("InboxExpvar %v (core only %v), want %v", cfg.InboxExpvar, cfg.InboxCoreOnly, tc.expvar)
			}
			if !tc.expvar {
				return
			}
			cfg.Module = "example.com/expvar"
			rendered, err := templates.Render(cfg, "inbox")
			if err != nil {
				t.Fatal(err)
			}
			files := map[string][]byte{}
			for _, f := range rendered {
				if pf, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Content, parser.ImportsOnly); err == nil {
					for _, im := range pf.Imports {
						if strings.Contains(im.Path.Value, "prometheus") {
							t.Errorf("%s imports %s", f.Path, im.Path.Value)
						}
					}
				}
				files[f.Path] = f.Content
			}
			if len(files) < 3 {
				t.Fatalf("rendered %d files, want the inbox core and its glue", len(files))
			}
			built := testmod.New(t, cfg.Module, files)
			testmod.Go(t, built, "build", "./...")
			testmod.Go(t, built, "vet", "./...")
		})
	}
}
