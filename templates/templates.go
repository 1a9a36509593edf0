// Package templates owns the embedded templates of everything outboxify
// generates (migrations, outbox writer, inbox, relay, ops files, Debezium
// config) and the renderer that turns a Config into files. Rendering returns
// files as data and writes nothing; Go output is gofmt'd.
//
// Layout of the embedded tree: files/<component>/<name>[.tmpl]. The component
// decides the output directory (see Config.Dir). A file ending in .tmpl is
// rendered with text/template and Config as data; a rendered file that is
// empty after trimming is skipped, so a template decides for itself whether
// it applies (e.g. {{if eq .Broker "nats"}}...{{end}}). Other files are
// copied as they are.
package templates

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"go/format"
	"hash/crc32"
	"io/fs"
	"path"
	"sort"
	"strings"
	"text/template"

	"golang.org/x/mod/semver"
)

//go:embed all:files
var embedded embed.FS

// The relay module's go.mod requirements and go.sum per database and broker
// (relaymods/<db>_<broker>.mod and .sum), pinned to the versions outboxify's
// own tests run the relay with. Regenerate after changing go.mod or a relay
// import: go generate ./templates
//
//go:generate go run ./internal/relaymods
//go:embed relaymods
var relayMods embed.FS

// RelayBrokers are the brokers the relay publishes to.
var RelayBrokers = []string{"kafka-go", "franz-go", "sarama", "nats", "jetstream", "amqp091", "redis", "sns", "sqs", "pubsub", "mqtt"}

// KafkaPartitioners are the key-to-partition mappings the Kafka relay can
// use; n is the partition count and every hash is of the record key's bytes:
//
//	murmur2          (murmur2(key) & 0x7fffffff) % n: the Java client, franz-go's default,
//	                 kafka-go Murmur2Balancer, sarama NewMurmur2Partitioner,
//	                 librdkafka murmur2 / murmur2_random
//	fnv1a            |int32(fnv1a32(key)) % n|: sarama's default NewHashPartitioner, kafka-go Hash,
//	                 librdkafka fnv1a / fnv1a_random (made to match sarama)
//	fnv1a-reference  (int32(fnv1a32(key)) & 0x7fffffff) % n: sarama NewReferenceHashPartitioner,
//	                 kafka-go ReferenceHash
//	crc32            crc32.ChecksumIEEE(key) % n (unsigned): librdkafka consistent /
//	                 consistent_random (confluent-kafka-go's default), kafka-go
//	                 CRC32Balancer, sarama NewConsistentCRCHashPartitioner
//
// The relay always sends a key (aggregate_id), so the clients' different
// handling of nil keys never applies.
var KafkaPartitioners = []string{"murmur2", "fnv1a", "fnv1a-reference", "crc32"}

// KafkaPartitioner returns the partitioner the Kafka relay renders with:
// Partitioner, or when empty the relay client's default (sarama's hash
// partitioner is FNV-1a; kafka-go's relay has always used murmur2, as
// franz-go does by default).
func (c Config) KafkaPartitioner() string {
	if c.Partitioner != "" {
		return c.Partitioner
	}
	if c.Broker == "sarama" {
		return "fnv1a"
	}
	return "murmur2"
}

// KafkaPartitionerWhy says why the relay uses KafkaPartitioner.
func (c Config) KafkaPartitionerWhy() string {
	switch {
	case c.PartitionerSource != "":
		return c.PartitionerSource
	case c.Partitioner == "":
		return "the relay client's default (no producer configuration was detected)"
	}
	return "chosen at generation"
}

// RelayMinGo is the lowest go line of the relay module (its code uses
// math/rand/v2); go mod tidy raises it to what the pinned clients need.
const RelayMinGo = "1.22"

// RelayModFile returns the pinned part of the relay module's go.mod (kind
// "mod": go line and requirements, no module line) or its go.sum (kind "sum")
// for db and broker.
func RelayModFile(db, broker, kind string) (string, error) {
	name := "relaymods/" + db + "_" + broker + "." + kind
	b, err := relayMods.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("no pinned relay module for --db %s --broker %s (%s): %w", db, broker, name, err)
	}
	return string(b), nil
}

// FS is the template tree (rooted at files/).
var FS, _ = fs.Sub(embedded, "files")

// File is one rendered output file.
type File struct {
	Path      string // slash path relative to the project root
	Content   []byte
	Component string // the template component it came from
}

// Config holds every choice a template can depend on.
type Config struct {
	Module string // Go module path of the target project

	DB     string // postgres | mysql
	Driver string // database/sql | pgx | pgx4 | sqlx | gorm: the default writer (Insert)
	// Drivers are further drivers the module writes with: each gets its own
	// writer (InsertSQL, InsertSqlx, InsertPgx, InsertPgxV4, InsertGorm), so
	// every rewritten call site compiles against its own transaction type.
	Drivers []string
	// PgxPool: the module imports pgx v5's pgxpool (the unit of work's Pgx
	// accessor takes a pool; go.sum holds its dependencies' hashes only then).
	PgxPool bool
	// PgxV4Pool: the module imports pgx v4's pgxpool and requires
	// github.com/jackc/pgconn directly (pgx v4's CommandTag is declared
	// there): the unit of work's PgxV4 accessor spells it. Without the
	// direct requirement go.mod would have to change, so there is none.
	PgxV4Pool bool
	// GoVersion is the module's go line ("1.16" when it has none): service-side
	// code uses only what that language version and its standard library allow.
	GoVersion string
	Broker    string // kafka-go | franz-go | sarama | nats | jetstream | amqp091 | redis | sns | sqs | pubsub | mqtt
	// BrokerModule is the broker client module the inbox's consumer glue
	// imports: one of BrokerModules[Broker], the one the module requires
	// (e.g. github.com/Shopify/sarama, github.com/streadway/amqp,
	// github.com/go-redis/redis/v8); empty means the first, the default.
	BrokerModule string
	// BrokerVersion is the version of BrokerModule the module requires
	// ("" when unknown: the newest API is assumed). Below JetStreamPackage
	// the JetStream glue uses nats.go's legacy JetStreamContext API.
	BrokerVersion string
	// InboxCoreOnly leaves the consumer glue out of the inbox (only Handle
	// and its helpers are generated): set when a client the glue calls is
	// required below its floor, so the glue would not build.
	InboxCoreOnly bool
	// InboxExpvar: the module does not require the Prometheus client, so
	// the consumer glue publishes its metrics with expvar (standard
	// library, /debug/vars) under the same names instead of importing it.
	InboxExpvar bool
	Migrations  string // sql | goose | migrate | atlas
	Relay       string // polling | debezium
	Notify      string // trigger | off

	// Partitioner is the Kafka key hash the relay places records with, so a
	// key lands on the partition the service's existing producers put it on
	// (one of KafkaPartitioners); empty means the relay client's own default
	// (see KafkaPartitioner).
	Partitioner string
	// PartitionerSource says why Partitioner was chosen (detection evidence
	// or "--partitioner"), for OUTBOX.md.
	PartitionerSource string

	Table      string // outbox table name (default "outbox")
	InboxTable string // inbox table name (default "inbox")
	Channel    string // NOTIFY channel (default "outbox")

	// Output directories, slash paths relative to the project root.
	OutboxDir string // default internal/outbox
	InboxDir  string // default internal/inbox
	// RelayModuleDir is the relay's own Go module (go.mod, go.sum,
	// Dockerfile, README): the relay is a separate program, so its broker
	// client, database driver and metrics never enter the service's go.mod.
	RelayModuleDir string // default outbox-relay
	RelayDir       string // default <RelayModuleDir>/outboxrelay
	RelayCmdDir    string // default <RelayModuleDir>
	MigrationsDir  string // default migrations
	OpsDir         string // default deploy/outbox

	// MigrationVersion is the version prefix of the migration files
	// (e.g. "20261202000000" or "000003"); filled by the generator from the
	// project's existing numbering style.
	MigrationVersion string

	// Schema is the version of the outbox schema the outbox migration
	// creates (0: LatestSchema). generate sets it to the version an existing
	// outbox migration records, so that migration renders as it was
	// generated and the changes since come as upgrade migrations.
	Schema int
	// UpgradeTo and UpgradeVersion select the upgrade migration to render:
	// the one that takes an outbox schema of version UpgradeTo-1 to
	// UpgradeTo, with UpgradeVersion as its version prefix. No upgrade
	// migration is rendered while UpgradeVersion is empty.
	UpgradeTo      int
	UpgradeVersion string
}

// LatestSchema is the version of the outbox schema this outboxify generates.
// 1: the first schema (its migration records no version). 2: dead letters
// leave the relay's claim index (PostgreSQL: the partial index on unpublished
// rows also requires dead_at IS NULL; MySQL: the key is (published_at,
// dead_at, seq)). 3: the rows a relay finds held back behind a dead letter
// (block mode) leave it too (blocked_at; PostgreSQL: an index of the blocked
// rows; MySQL: the key is (published_at, dead_at, blocked_at, seq) and the
// retry key is per aggregate). 4: PostgreSQL's insert trigger sends its NOTIFY
// only while a relay idles (it holds the idle lock, IdleLockClass); MySQL's
// schema is unchanged (no upgrade step). A schema change raises it and adds an upgrade step to the
// migration templates; a migration already generated is never rewritten.
const LatestSchema = 4

// IdleLockClass is the first int4 of the two-int4 advisory lock key (the
// second is 0) that a relay holds while it waits for a notification: the
// schema-4 trigger notifies only when it cannot take that key shared. The
// relay's batch locks use other classes (crc32 of "outboxify.relay." and
// "outboxify.relay.overlap." + table), the writer's per-aggregate locks the
// one-bigint form, a separate key space.
func IdleLockClass(table string) int32 {
	return int32(crc32.ChecksumIEEE([]byte("outboxify.relay.idle." + table)))
}

// UpgradeApplies reports whether the upgrade step to schema version to
// changes anything for c: a step that does not (schema 4 on MySQL, or
// without the PostgreSQL trigger) gets no migration file.
func UpgradeApplies(c Config, to int) bool {
	c = c.WithDefaults()
	if to == 4 {
		return c.DB == "postgres" && c.Notify == "trigger" && c.Relay != "debezium"
	}
	return true
}

// WithDefaults returns c with empty fields set to their defaults.
func (c Config) WithDefaults() Config {
	def := func(p *string, v string) {
		if *p == "" {
			*p = v
		}
	}
	def(&c.DB, "postgres")
	def(&c.Driver, "database/sql")
	def(&c.Broker, "nats")
	def(&c.Migrations, "sql")
	def(&c.Relay, "polling")
	def(&c.Notify, "trigger")
	def(&c.Table, "outbox")
	def(&c.InboxTable, "inbox")
	def(&c.Channel, "outbox")
	def(&c.OutboxDir, "internal/outbox")
	def(&c.InboxDir, "internal/inbox")
	def(&c.RelayModuleDir, "outbox-relay")
	def(&c.RelayDir, path.Join(c.RelayModuleDir, "outboxrelay"))
	def(&c.RelayCmdDir, c.RelayModuleDir)
	def(&c.MigrationsDir, "migrations")
	def(&c.OpsDir, "deploy/outbox")
	def(&c.MigrationVersion, "000001")
	if c.Schema == 0 {
		c.Schema = LatestSchema
	}
	return c
}

// ImportPath returns the Go import path of a project directory.
func (c Config) ImportPath(dir string) string { return path.Join(c.Module, dir) }

// Writer is one outbox writer function and the driver whose transaction it takes.
type Writer struct{ Driver, Func string }

// WriterFuncs names the writer of each driver that is not the default one.
var WriterFuncs = map[string]string{"database/sql": "InsertSQL", "sqlx": "InsertSqlx", "pgx": "InsertPgx", "pgx4": "InsertPgxV4", "gorm": "InsertGorm"}

// Writers lists the writers to generate: Insert for the default driver
// (code fixed earlier calls it), then one per further driver.
func (c Config) Writers() []Writer {
	c = c.WithDefaults()
	out := []Writer{{Driver: c.Driver, Func: "Insert"}}
	seen := map[string]bool{c.Driver: true}
	for _, d := range c.Drivers {
		f, ok := WriterFuncs[d]
		if !ok || seen[d] || (d == "pgx" || d == "pgx4") && c.DB != "postgres" {
			continue // unknown, listed twice, or a PostgreSQL-only driver on MySQL
		}
		seen[d] = true
		out = append(out, Writer{Driver: d, Func: f})
	}
	sort.SliceStable(out[1:], func(i, j int) bool { return out[1+i].Func < out[1+j].Func })
	return out
}

// GoAtLeast reports whether the module's go line is v or newer. An unset
// GoVersion (a caller that did not detect one) allows everything.
func (c Config) GoAtLeast(v string) bool {
	return c.GoVersion == "" || versionCompare(c.GoVersion, v) >= 0
}

// InboxGlueGo is the oldest go line the inbox's consumer glue compiles at
// (log/slog, errors.Join, min); below it only the inbox core (Handle) is
// generated.
const InboxGlueGo = "1.21"

// BrokerModules are, per broker, the client modules the inbox's consumer
// glue renders for (same package name and API family); the first is the
// default, the one outboxify's own tests run against.
var BrokerModules = map[string][]string{
	"kafka-go":  {"github.com/segmentio/kafka-go"},
	"franz-go":  {"github.com/twmb/franz-go"},
	"sarama":    {"github.com/IBM/sarama", "github.com/Shopify/sarama"},
	"nats":      {"github.com/nats-io/nats.go"},
	"jetstream": {"github.com/nats-io/nats.go"},
	"amqp091":   {"github.com/rabbitmq/amqp091-go", "github.com/streadway/amqp"},
	"redis":     {"github.com/redis/go-redis/v9", "github.com/go-redis/redis/v8"},
	"sns":       {"github.com/aws/aws-sdk-go-v2/service/sqs"},
	"sqs":       {"github.com/aws/aws-sdk-go-v2/service/sqs"},
	"pubsub":    {"cloud.google.com/go/pubsub/v2"},
	"mqtt":      {"github.com/eclipse/paho.mqtt.golang"},
}

// NoInboxGlue are the brokers the inbox has no consumer glue for, each with
// what to do instead: only the inbox core (inbox.Handle) is generated, and
// the service calls it from its own consumer.
var NoInboxGlue = map[string]string{
	"mqtt": "call inbox.Handle from the paho message handler; MQTT 3.1.1 carries no outbox id, so deduplicate by a business key in the payload",
}

// HasInboxGlue reports whether the inbox's consumer glue is generated for
// c.Broker (an unknown broker has none either).
func (c Config) HasInboxGlue() bool {
	_, none := NoInboxGlue[c.Broker]
	return !none && len(BrokerModules[c.Broker]) > 0
}

// JetStreamPackage is the nats.go version that added the nats.go/jetstream
// package; for an older nats.go the JetStream glue is written against the
// legacy nats.JetStreamContext API instead.
const JetStreamPackage = "v1.26.0"

// ClientModule is the broker client module the consumer glue imports.
func (c Config) ClientModule() (string, error) {
	mods := BrokerModules[c.Broker]
	if len(mods) == 0 {
		return "", fmt.Errorf("broker %q has no client module", c.Broker)
	}
	if c.BrokerModule == "" {
		return mods[0], nil
	}
	for _, m := range mods {
		if m == c.BrokerModule {
			return m, nil
		}
	}
	return "", fmt.Errorf("the inbox glue for broker %s is written for %s, not %s", c.Broker, strings.Join(mods, " or "), c.BrokerModule)
}

// LegacyJetStream reports whether the JetStream glue uses nats.go's
// JetStreamContext API: the module requires a nats.go without the jetstream
// package.
func (c Config) LegacyJetStream() bool {
	return c.Broker == "jetstream" && semver.IsValid(c.BrokerVersion) && semver.Compare(c.BrokerVersion, JetStreamPackage) < 0
}

// versionCompare compares Go versions like "1.16", "1.21.0", "1.22rc1" by
// their numeric parts.
func versionCompare(a, b string) int {
	pa, pb := versionParts(a), versionParts(b)
	for i := 0; i < 3; i++ {
		if pa[i] != pb[i] {
			if pa[i] < pb[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

func versionParts(v string) [3]int {
	var out [3]int
	for i, f := range strings.SplitN(v, ".", 3) {
		n := 0
		for _, r := range f {
			if r < '0' || r > '9' {
				break
			}
			n = n*10 + int(r-'0')
		}
		out[i] = n
	}
	return out
}

// RelayModule is the module path of the relay's own module.
func (c Config) RelayModule() string { return path.Join(c.Module, c.RelayModuleDir) }

// Dir maps a template component to its output directory.
func (c Config) Dir(component string) (string, error) {
	switch component {
	case "outbox":
		return c.OutboxDir, nil
	case "inbox":
		return c.InboxDir, nil
	case "relay":
		return c.RelayDir, nil
	case "relaycmd":
		return c.RelayCmdDir, nil
	case "relaymod":
		return c.RelayModuleDir, nil
	case "migrations":
		return c.MigrationsDir, nil
	case "ops":
		return c.OpsDir, nil
	case "debezium":
		return path.Join(c.OpsDir, "debezium"), nil
	case "root":
		return ".", nil
	}
	return "", fmt.Errorf("template component %q has no output directory", component)
}

var funcs = template.FuncMap{
	"lower": strings.ToLower,
	"upper": strings.ToUpper,
	"base":  path.Base,
	"join":  path.Join,
	"quote": func(s string) string { return fmt.Sprintf("%q", s) },
	// fail stops rendering with an error: a template that cannot serve a
	// configuration says so instead of rendering something wrong.
	"fail":      func(msg string) (string, error) { return "", errors.New(msg) },
	"relaymod":  RelayModFile,
	"goAtLeast": func(c Config, v string) bool { return c.GoAtLeast(v) },
	"hasWriter": func(c Config, driver string) bool {
		for _, w := range c.Writers() {
			if w.Driver == driver {
				return true
			}
		}
		return false
	},
	// relaygo is the go line of the pinned relay module.
	"relaygo": func(db, broker string) (string, error) {
		mod, err := RelayModFile(db, broker, "mod")
		if err != nil {
			return "", err
		}
		for _, line := range strings.Split(mod, "\n") {
			if v, ok := strings.CutPrefix(line, "go "); ok {
				return strings.TrimSpace(v), nil
			}
		}
		return "", fmt.Errorf("pinned relay module %s_%s has no go line", db, broker)
	},
	"hasPrefix": strings.HasPrefix,
	// idleLockClass is the first int4 of the advisory lock key an idling
	// relay holds (schema 4): the relay computes it from Table the same way.
	"idleLockClass": IdleLockClass,
	"oneof": func(v string, set ...string) bool {
		for _, s := range set {
			if v == s {
				return true
			}
		}
		return false
	},
}

// Render renders every component's templates for c (after WithDefaults) and
// returns the files sorted by path. Components may be restricted by name;
// none means all.
func Render(c Config, components ...string) ([]File, error) {
	c = c.WithDefaults()
	want := map[string]bool{}
	for _, comp := range components {
		want[comp] = true
	}
	var files []File
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		comp, rel, ok := strings.Cut(p, "/")
		if !ok {
			return nil // files at the top of files/ are not templates
		}
		if strings.HasPrefix(path.Base(rel), "_") {
			return nil // partials: parsed into the component's templates, never rendered alone
		}
		if len(want) > 0 && !want[comp] {
			return nil
		}
		if comp == "inbox" && c.Driver == "pgx4" {
			return nil // the inbox is written for pgx v5, database/sql, sqlx and gorm only
		}
		if comp == "inbox" && strings.HasPrefix(path.Base(rel), "consumer") && (!c.GoAtLeast(InboxGlueGo) || c.InboxCoreOnly || !c.HasInboxGlue()) {
			return nil // consumer glue needs a newer go line, or a newer client, than the module's, or has no template for the broker
		}
		f, err := renderOne(c, comp, rel, p)
		if err != nil {
			return err
		}
		if f != nil {
			files = append(files, *f)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

func renderOne(c Config, comp, rel, full string) (*File, error) {
	dir, err := c.Dir(comp)
	if err != nil {
		return nil, err
	}
	raw, err := fs.ReadFile(FS, full)
	if err != nil {
		return nil, err
	}
	out := raw
	name := rel
	if strings.HasSuffix(rel, ".tmpl") {
		name = strings.TrimSuffix(rel, ".tmpl")
		// The file name itself may be a template (e.g. {{.MigrationVersion}}_outbox.up.sql).
		name, err = execute(full+" (name)", name, c)
		if err != nil {
			return nil, err
		}
		partials, err := componentPartials(comp)
		if err != nil {
			return nil, err
		}
		body, err := execute(full, string(raw), c, partials...)
		if err != nil {
			return nil, err
		}
		if strings.TrimSpace(body) == "" || strings.TrimSpace(name) == "" {
			return nil, nil
		}
		out = []byte(body)
	}
	if strings.HasSuffix(name, ".go") {
		formatted, err := format.Source(out)
		if err != nil {
			return nil, fmt.Errorf("template %s renders Go that does not parse: %w", full, err)
		}
		out = formatted
	}
	return &File{Path: path.Join(dir, name), Content: out, Component: comp}, nil
}

// componentPartials returns the text of the component's partials: files
// whose name starts with "_" (e.g. files/migrations/_postgres.sql.tmpl). They
// hold {{define}} blocks shared by several templates of the component, so
// one SQL body serves goose, golang-migrate, atlas and plain files alike.
func componentPartials(comp string) ([]string, error) {
	entries, err := fs.ReadDir(FS, comp)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasPrefix(e.Name(), "_") {
			continue
		}
		b, err := fs.ReadFile(FS, path.Join(comp, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, string(b))
	}
	return out, nil
}

func execute(name, text string, c Config, partials ...string) (string, error) {
	t := template.New(name).Funcs(funcs).Option("missingkey=error")
	for i, p := range partials {
		if _, err := t.New(fmt.Sprintf("%s partial %d", name, i)).Parse(p); err != nil {
			return "", fmt.Errorf("parse partials of template %s: %w", name, err)
		}
	}
	t, err := t.Parse(text)
	if err != nil {
		return "", fmt.Errorf("parse template %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, c); err != nil {
		return "", fmt.Errorf("render template %s: %w", name, err)
	}
	return b.String(), nil
}
