package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"

	"github.com/outboxify/outboxify/templates"
)

// Detection is what Detect found and why, for printing.
type Detection struct {
	Root   string // module root directory (absolute)
	Module string // module path
	Out    string // --out of the last run (Options.Out when no flag is given)
	Items  []Item // one per setting, in a fixed order
	Notes  []string
	// Unsupported holds what was said of the unsupported broker clients
	// found when no supported one was (and no last run chose a broker):
	// generating a relay for the default broker would publish where the
	// service does not, so generate refuses unless --broker is given.
	Unsupported []string

	requires map[string]string // go.mod requirements: module path -> version
	direct   map[string]bool   // the requirements not marked // indirect
	imports  map[string]bool   // import paths of the module's own Go files
}

// Item is one detected setting and the evidence for it.
type Item struct {
	Setting, Value, Source string
}

// String prints the detection, one setting a line.
func (d Detection) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "module %s (%s)\n", d.Module, d.Root)
	for _, it := range d.Items {
		fmt.Fprintf(&b, "  %-16s %-13s %s\n", it.Setting+":", it.Value, it.Source)
	}
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	return b.String()
}

// NoBroker says why no relay can be generated without a choice: the module
// has only broker clients no relay publisher speaks (Unsupported), none was
// chosen (broker is the --broker flag, "" when not given) and the relay is
// not Debezium's. It returns "" when a relay can be generated.
func (d Detection) NoBroker(c templates.Config, broker string) string {
	if len(d.Unsupported) == 0 || broker != "" || c.Relay == "debezium" {
		return ""
	}
	return fmt.Sprintf("no supported broker client in this module (%s)", strings.Join(d.Unsupported, "; "))
}

func (d *Detection) add(setting, value, source string) {
	d.Items = append(d.Items, Item{setting, value, source})
}

// ErrNotModule is returned for a directory that is not inside a Go module.
var ErrNotModule = errors.New("not a Go module")

// FindModule returns the root directory (absolute) and module path of the
// module holding dir, looking upward like the go command does.
func FindModule(dir string) (root, module string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", fmt.Errorf("resolve %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return "", "", fmt.Errorf("read %s: %w", dir, err)
	} else if !fi.IsDir() {
		return "", "", fmt.Errorf("%s is not a directory", dir)
	}
	for d := abs; ; d = filepath.Dir(d) {
		data, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			path := modfile.ModulePath(data)
			if path == "" {
				return "", "", fmt.Errorf("%s: no module line", filepath.Join(d, "go.mod"))
			}
			return d, path, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", "", fmt.Errorf("read go.mod: %w", err)
		}
		if filepath.Dir(d) == d {
			return "", "", fmt.Errorf("%w: no go.mod in %s or any parent directory", ErrNotModule, abs)
		}
	}
}

// signal maps a go.mod requirement or an import path to a setting value.
type signal struct {
	path  string // module path (go.mod) or package path prefix (imports)
	value string
}

// Detection tables, in priority order: the first present wins.
var (
	dbSignals = []signal{
		{"github.com/jackc/pgx", "postgres"}, {"github.com/lib/pq", "postgres"}, {"gorm.io/driver/postgres", "postgres"},
		{"github.com/go-sql-driver/mysql", "mysql"}, {"gorm.io/driver/mysql", "mysql"}, {"github.com/go-pg/pg", "postgres"},
	}
	brokerSignals = []signal{
		{"github.com/segmentio/kafka-go", "kafka-go"},
		{"github.com/twmb/franz-go", "franz-go"},
		{"github.com/IBM/sarama", "sarama"}, {"github.com/Shopify/sarama", "sarama"},
		{"github.com/confluentinc/confluent-kafka-go", "franz-go"},
		{"github.com/nats-io/nats.go", "nats"},
		{"github.com/rabbitmq/amqp091-go", "amqp091"}, {"github.com/streadway/amqp", "amqp091"},
		{"github.com/redis/go-redis", "redis"}, {"github.com/go-redis/redis", "redis"},
		{"github.com/aws/aws-sdk-go-v2/service/sqs", "sqs"},
		{"github.com/aws/aws-sdk-go-v2/service/sns", "sns"},
		{"cloud.google.com/go/pubsub", "pubsub"},
		{"github.com/eclipse/paho.mqtt.golang", "mqtt"},
	}
	// Clients outboxify does not generate for; said plainly.
	unsupportedBrokers = []signal{
		{"github.com/ThreeDotsLabs/watermill", "watermill: publish through its Kafka/NATS/AMQP backend's client; pass --broker"},
		{"github.com/nats-io/stan.go", "NATS Streaming (stan) is not supported yet; JetStream is its successor (--broker jetstream)"},
		{"github.com/aws/aws-sdk-go-v2/service/eventbridge", "EventBridge is not supported yet"},
		{"github.com/aws/aws-sdk-go-v2/service/kinesis", "Kinesis is not supported yet"},
		{"github.com/apache/rocketmq-client-go", "Apache RocketMQ is not supported yet"},
		{"github.com/aws/aws-sdk-go/service/sns", "SNS through the AWS SDK v1: the relay's publisher uses the v2 SDK (--broker sns)"},
		{"github.com/aws/aws-sdk-go/service/sqs", "SQS through the AWS SDK v1: the relay's publisher uses the v2 SDK (--broker sqs)"},
		{"github.com/aws/aws-sdk-go/service/kinesis", "Kinesis is not supported yet"},
		{"github.com/aws/aws-sdk-go/service/eventbridge", "EventBridge is not supported yet"},
		{"github.com/apache/pulsar-client-go", "Apache Pulsar is not supported yet"},
		{"github.com/nsqio/go-nsq", "NSQ is not supported yet"},
		{"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus", "Azure Service Bus is not supported yet"},
		{"github.com/Azure/azure-sdk-for-go/sdk/messaging/azeventhubs", "Azure Event Hubs is not supported yet"},
		{"github.com/dapr/go-sdk", "Dapr pub/sub: use the state store's outbox (outboxPublishPubsub) instead of a relay"},
		{"github.com/gomodule/redigo", "Redis through redigo: the relay publishes with go-redis; pass --broker redis"},
		{"github.com/garyburd/redigo", "Redis through redigo: the relay publishes with go-redis; pass --broker redis"},
		{"go-micro.dev", "go-micro events and broker: publish through its backend's client; pass --broker"},
		{"github.com/mediocregopher/radix", "Redis through radix: the relay publishes with go-redis; pass --broker redis"},
		{"github.com/redis/rueidis", "Redis through rueidis: the relay publishes with go-redis; pass --broker redis"},
		{"github.com/Azure/go-amqp", "AMQP 1.0 (go-amqp) is not supported yet"},
		{"github.com/eclipse/paho.golang", "MQTT v5 through paho.golang: the relay publishes with paho.mqtt.golang; pass --broker mqtt"},
		{"github.com/riverqueue/river", "River: insert jobs with InsertTx in the write's transaction; it needs no outbox relay"},
	}
	migrationSignals = []signal{
		{"ariga.io/atlas", "atlas"}, {"github.com/pressly/goose", "goose"}, {"github.com/golang-migrate/migrate", "migrate"},
	}
)

// Detect finds the module holding dir and the settings its go.mod, imports
// and files imply. Settings nothing points at get the defaults, marked as
// such. It reads, never writes.
func Detect(dir string) (templates.Config, Detection, error) {
	root, module, err := FindModule(dir)
	if err != nil {
		return templates.Config{}, Detection{}, err
	}
	det := Detection{Root: root, Module: module}
	cfg := templates.Config{Module: module}
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return cfg, det, fmt.Errorf("read go.mod: %w", err)
	}
	mf, err := modfile.Parse(filepath.Join(root, "go.mod"), data, nil)
	if err != nil {
		return cfg, det, fmt.Errorf("parse go.mod: %w", err)
	}
	reqs := map[string]bool{}
	det.requires = map[string]string{}
	for _, r := range mf.Require {
		// An indirect requirement is another module's choice, not evidence
		// of what this module uses (a kafka-go // indirect line must not
		// give a NATS service a Kafka relay).
		if !r.Indirect {
			reqs[r.Mod.Path] = true
		}
		if det.direct == nil {
			det.direct = map[string]bool{}
		}
		det.direct[r.Mod.Path] = !r.Indirect
		det.requires[r.Mod.Path] = r.Mod.Version
	}
	last := lastRun(root)
	generated := map[string]bool{}
	if last != nil {
		for p := range last.Files {
			generated[filepath.Join(root, filepath.FromSlash(p))] = true
		}
	}
	imports, err := scanImports(root, generated)
	if err != nil {
		return cfg, det, err
	}
	det.imports = imports
	sortedReqs, sortedImports := sortedKeys(reqs), sortedKeys(imports)
	// evidence for a module or package prefix: an import (what the code
	// calls) before a direct requirement
	has := func(prefix string) (string, bool) {
		for _, p := range sortedImports {
			if p == prefix || strings.HasPrefix(p, prefix+"/") {
				return "imported " + p, true
			}
		}
		for _, p := range sortedReqs {
			if p == prefix || strings.HasPrefix(p, prefix+"/") {
				return "go.mod requires " + p, true
			}
		}
		return "", false
	}
	// first picks the first signal the code imports, else the first one
	// go.mod requires directly; the others found are named in a note.
	first := func(sigs []signal) (value, source string, others []string) {
		for _, imported := range []bool{true, false} {
			for _, s := range sigs {
				src, ok := has(s.path)
				if !ok || strings.HasPrefix(src, "imported ") != imported {
					continue
				}
				if value == "" {
					value, source = s.value, src
				} else if s.value != value && !contains(others, s.value) {
					others = append(others, s.value)
				}
			}
		}
		return value, source, others
	}

	// Database.
	if v, src, others := first(dbSignals); v != "" {
		cfg.DB = v
		det.add("db", v, src)
		if len(others) > 0 {
			det.Notes = append(det.Notes, fmt.Sprintf("also found %s; pass --db to choose", strings.Join(others, ", ")))
		}
	} else {
		cfg.DB = "postgres"
		det.add("db", "postgres", "default (no database driver in go.mod)")
	}

	// Driver.
	gormSrc, gormOK := has("gorm.io/gorm")
	sqlxSrc, sqlxOK := has("github.com/jmoiron/sqlx")
	switch {
	case gormOK:
		cfg.Driver = "gorm"
		det.add("driver", "gorm", gormSrc)
	case sqlxOK:
		cfg.Driver = "sqlx"
		det.add("driver", "sqlx", sqlxSrc)
	case cfg.DB == "postgres" && nativePgx(reqs, imports, "v5"):
		cfg.Driver = "pgx"
		det.add("driver", "pgx", "github.com/jackc/pgx/v5 used natively (no pgx/v5/stdlib import)")
	case cfg.DB == "postgres" && nativePgx(reqs, imports, "v4"):
		cfg.Driver = "pgx4"
		det.add("driver", "pgx4", "github.com/jackc/pgx/v4 used natively (no pgx/v4/stdlib import)")
	default:
		cfg.Driver = "database/sql"
		det.add("driver", "database/sql", "default (no gorm, sqlx or native pgx)")
	}
	// Every other driver the module's code writes with gets its own writer.
	var others []string
	for _, d := range []struct {
		driver string
		used   bool
	}{
		{"gorm", gormOK && imports["gorm.io/gorm"]},
		{"sqlx", sqlxOK && imports["github.com/jmoiron/sqlx"]},
		{"pgx", cfg.DB == "postgres" && nativePgx(reqs, imports, "v5") && importsUnder(imports, "github.com/jackc/pgx/v5")},
		{"pgx4", cfg.DB == "postgres" && nativePgx(reqs, imports, "v4") && importsUnder(imports, "github.com/jackc/pgx/v4")},
		{"database/sql", imports["database/sql"]},
	} {
		if d.used && d.driver != cfg.Driver {
			cfg.Drivers = append(cfg.Drivers, d.driver)
			others = append(others, d.driver)
		}
	}
	if len(others) > 0 {
		det.add("writers", strings.Join(others, ","), "also written with in this module (a writer each)")
	}

	cfg.PgxPool = imports["github.com/jackc/pgx/v5/pgxpool"]
	cfg.PgxV4Pool = imports["github.com/jackc/pgx/v4/pgxpool"] && det.direct["github.com/jackc/pgconn"]

	// Go line: service-side code stays within it.
	cfg.GoVersion = "1.16" // what the go command assumes without a go line
	if mf.Go != nil {
		cfg.GoVersion = mf.Go.Version
	}
	det.add("go", cfg.GoVersion, "go.mod go line")
	if !cfg.GoAtLeast(templates.InboxGlueGo) {
		det.Notes = append(det.Notes, fmt.Sprintf("go %s: the inbox's consumer glue needs go %s; only the inbox core (inbox.Handle) is generated", cfg.GoVersion, templates.InboxGlueGo))
	}
	if cfg.Driver == "pgx4" {
		det.Notes = append(det.Notes, "pgx v4: the outbox writer takes pgx v4 transactions; the inbox is not generated for pgx v4")
	}

	// Broker.
	brokerDefaulted := false
	if v, src, others := first(brokerSignals); v != "" {
		if v == "nats" && (imports["github.com/nats-io/nats.go/jetstream"] || usesJetStreamContext(root, generated)) {
			v, src = "jetstream", src+" (JetStream in use)"
		}
		if strings.Contains(src, "confluent-kafka-go") {
			det.Notes = append(det.Notes, "confluent-kafka-go is not generated for; using the closest supported Kafka client, franz-go")
		}
		cfg.Broker = v
		det.add("broker", v, src)
		if len(others) > 0 {
			det.Notes = append(det.Notes, fmt.Sprintf("also found broker clients %s; pass --broker to choose", strings.Join(others, ", ")))
		}
	} else {
		cfg.Broker, brokerDefaulted = "nats", true
		det.add("broker", "nats", "default (no supported broker client in go.mod)")
	}
	// Kafka partitioner: where the existing producers put each key.
	if v, src, notes, ok := detectPartitioner(root, reqs, imports, generated); ok {
		cfg.Partitioner, cfg.PartitionerSource = v, src
		det.add("partitioner", v, src)
		det.Notes = append(det.Notes, notes...)
	}
	for _, s := range unsupportedBrokers {
		if _, ok := has(s.path); ok {
			det.Notes = append(det.Notes, s.value)
			if brokerDefaulted {
				det.Unsupported = append(det.Unsupported, s.value)
			}
		}
	}

	// Migrations: directory, then format.
	mdir, msrc := migrationsDir(root)
	cfg.MigrationsDir = mdir
	det.add("migrations dir", mdir, msrc)
	format, fsrc := migrationFormat(root, mdir)
	if format == "" {
		if v, src, _ := first(migrationSignals); v != "" {
			format, fsrc = v, src
		} else if v, src := makefileTool(root); v != "" {
			format, fsrc = v, src
		} else {
			format, fsrc = "sql", "default (no migration tool found)"
		}
	}
	cfg.Migrations = format
	det.add("migrations", format, fsrc)
	if found := findOutboxMigrations(filepath.Join(root, filepath.FromSlash(mdir))); found.name != "" {
		note := fmt.Sprintf("outbox migration already present: %s (kept; no second one is added)", slashJoin(mdir, found.name))
		cur, to := found.current(), 0
		for v := cur + 1; v <= templates.LatestSchema; v++ {
			if templates.UpgradeApplies(cfg, v) {
				to = v
			}
		}
		if to > 0 {
			note += fmt.Sprintf("; outbox schema %d, upgraded to %d by a new migration", cur, to)
		}
		det.Notes = append(det.Notes, note)
	}

	cfg.Relay = "polling"
	det.add("relay", "polling", "default (--relay debezium for Kafka Connect CDC)")
	// Notify stays unset: its default follows the database finally chosen
	// (a --db flag may change it), see Plan.
	if cfg.DB == "postgres" {
		det.add("notify", "trigger", "default (--notify off to poll only)")
	} else {
		det.add("notify", "off", "MySQL has no LISTEN/NOTIFY; the relay polls")
	}
	if last != nil && last.Settings != nil {
		cfg = det.useLastRun(cfg, *last.Settings)
		det.Out = last.Settings.Out
	}
	cfg, notes := det.Client(cfg)
	det.Notes = append(det.Notes, notes...)
	return cfg, det, nil
}

// metricsModule is the module of the Prometheus client every consumer glue
// file's base (consumer.go) imports.
const metricsModule = "github.com/prometheus/client_golang"

// Client fills c's BrokerModule and BrokerVersion with the client of
// c.Broker the module requires (the one its code imports when it requires
// several, e.g. Shopify's and IBM's sarama), so the consumer glue is written
// for it, and sets InboxCoreOnly when that client or the Prometheus client
// is required below the glue's floor: the glue would not build, and the
// module's requirements are never changed for it. The notes say what was
// chosen and, below a floor, which version the glue needs. Call it again
// after a flag changes the broker.
func (d Detection) Client(c templates.Config) (templates.Config, []string) {
	c.BrokerModule, c.BrokerVersion, c.InboxCoreOnly = "", "", false
	// Service-side code imports only what the module requires directly:
	// without client_golang the glue's metrics go to expvar.
	c.InboxExpvar = !d.direct[metricsModule] && !importsUnder(d.imports, metricsModule)
	if how, none := templates.NoInboxGlue[c.Broker]; none {
		// No consumer glue for this broker: the inbox core alone, said
		// plainly (like a client below its floor), never a failure.
		c.InboxCoreOnly = true
		for _, m := range templates.BrokerModules[c.Broker] {
			if v, ok := d.requires[m]; ok {
				c.BrokerModule, c.BrokerVersion = m, v
				break
			}
		}
		if !c.GoAtLeast(templates.InboxGlueGo) || c.Driver == "pgx4" {
			return c, nil // no glue anyway (noted above)
		}
		return c, []string{fmt.Sprintf("broker %s: the inbox has no consumer glue for it; only the inbox core (inbox.Handle) is generated (%s)", c.Broker, how)}
	}
	var chosen string
	for _, m := range templates.BrokerModules[c.Broker] {
		if _, ok := d.requires[m]; ok && (chosen == "" || importsUnder(d.imports, m) && !importsUnder(d.imports, chosen)) {
			chosen = m
		}
	}
	if chosen == "" {
		for _, m := range templates.BrokerModules[c.Broker] {
			if importsUnder(d.imports, m) {
				chosen = m
				break
			}
		}
	}
	if chosen == "" {
		return c, nil // not required: the glue is written for the default client, which generate says to go get
	}
	c.BrokerModule, c.BrokerVersion = chosen, d.requires[chosen]
	if !c.GoAtLeast(templates.InboxGlueGo) || c.Driver == "pgx4" {
		return c, nil // no glue is generated anyway (noted above)
	}
	var notes, below []string
	metricsFrom := []string{chosen, metricsModule}
	if c.InboxExpvar {
		metricsFrom = metricsFrom[:1]
	}
	for _, m := range metricsFrom {
		v, floor := d.requires[m], Floor(m)
		if v != "" && floor != "" && semver.Compare(v, floor) < 0 {
			below = append(below, fmt.Sprintf("%s %s: the inbox's consumer glue needs %s or newer", m, v, floor))
		}
	}
	if len(below) > 0 {
		c.InboxCoreOnly = true
		var upgrade []string
		for _, b := range below {
			m, _, _ := strings.Cut(b, " ")
			upgrade = append(upgrade, m+"@"+Floor(m))
		}
		notes = append(notes, fmt.Sprintf("%s; only the inbox core (inbox.Handle) is generated and go.mod is unchanged (go get %s, then rerun generate, for the glue)",
			strings.Join(below, "; "), strings.Join(upgrade, " ")))
		return c, notes
	}
	if c.LegacyJetStream() {
		notes = append(notes, fmt.Sprintf("%s %s predates its jetstream package (%s): the JetStream consumer glue uses the JetStreamContext API", chosen, c.BrokerVersion, templates.JetStreamPackage))
	}
	return c, notes
}

// useLastRun takes the settings recorded by the previous run over what the
// files suggest, so a re-run without flags is a no-op; flags still win.
func (d *Detection) useLastRun(c templates.Config, s Settings) templates.Config {
	const src = "last run (" + ManifestPath + ")"
	for _, f := range []struct {
		setting string
		dst     *string
		v       string
	}{
		{"db", &c.DB, s.DB}, {"driver", &c.Driver, s.Driver}, {"broker", &c.Broker, s.Broker},
		{"migrations dir", &c.MigrationsDir, s.MigrationsDir}, {"migrations", &c.Migrations, s.Migrations},
		{"relay", &c.Relay, s.Relay}, {"notify", &c.Notify, s.Notify}, {"partitioner", &c.Partitioner, s.Partitioner},
	} {
		if f.v == "" {
			continue
		}
		detected := *f.dst
		*f.dst = f.v
		if f.setting == "partitioner" && (detected != f.v || c.PartitionerSource == "") {
			// the files still say the same: keep naming where (a re-run
			// must render the same relay and OUTBOX.md)
			c.PartitionerSource = src
		}
		if f.setting == "broker" {
			d.Unsupported = nil // the last run chose one
		}
		for i := range d.Items {
			if d.Items[i].Setting == f.setting {
				d.Items[i].Value, d.Items[i].Source = f.v, src
			}
		}
	}
	return c
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func slashJoin(dir, name string) string { return strings.TrimPrefix(dir+"/"+name, "./") }

// nativePgx: pgx/v5 is required and the code does not go through its
// database/sql adapter.
// importsUnder reports whether the module imports mod or a package inside it.
func importsUnder(imports map[string]bool, mod string) bool {
	for p := range imports {
		if p == mod || strings.HasPrefix(p, mod+"/") {
			return true
		}
	}
	return false
}

func nativePgx(reqs, imports map[string]bool, major string) bool {
	mod := "github.com/jackc/pgx/" + major
	if !reqs[mod] && !imports[mod] {
		return false
	}
	if imports[mod+"/stdlib"] {
		return imports[mod+"/pgxpool"] || imports[mod]
	}
	return true
}

// skipDir reports directories detection never looks into.
func skipDir(name string) bool {
	return name == "vendor" || name == "testdata" || name == "node_modules" || (strings.HasPrefix(name, ".") && name != ".")
}

// walkModule calls fn for each regular file of the module rooted at root,
// skipping vendor, testdata, hidden directories and nested modules.
func walkModule(root string, fn func(path string, d fs.DirEntry) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			if p != root {
				if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return fn(p, d)
	})
}

// lastRun reads the manifest of the previous run, nil without one. Its
// files are left out of detection (the generated relay may import a driver
// the project itself does not use), and its settings are reused.
func lastRun(root string) *manifest {
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(ManifestPath)))
	if err != nil {
		return nil
	}
	var m manifest
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return &m
}

// scanImports returns the import paths of the module's own Go files.
func scanImports(root string, skip map[string]bool) (map[string]bool, error) {
	imports := map[string]bool{}
	fset := token.NewFileSet()
	err := walkModule(root, func(p string, d fs.DirEntry) error {
		if !strings.HasSuffix(p, ".go") || skip[p] {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return nil // a file that does not parse says nothing about settings
		}
		for _, im := range f.Imports {
			if v, err := strconv.Unquote(im.Path.Value); err == nil {
				imports[v] = true
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan imports: %w", err)
	}
	return imports, nil
}

var jetStreamCall = regexp.MustCompile(`\.JetStream\(`)

// usesJetStreamContext finds the legacy nats.JetStreamContext API.
func usesJetStreamContext(root string, skip map[string]bool) bool {
	found := false
	_ = walkModule(root, func(p string, d fs.DirEntry) error {
		if found || !strings.HasSuffix(p, ".go") || skip[p] {
			return nil
		}
		b, err := os.ReadFile(p)
		if err == nil && jetStreamCall.Match(b) {
			found = true
		}
		return nil
	})
	return found
}

var (
	atlasDirURL = regexp.MustCompile(`url\s*=\s*"file://([^"?]+)`)
	sqlcSchema  = regexp.MustCompile(`(?m)"?schema"?\s*:\s*\[?\s*(?:-\s*)?"?([^"\],\n]+)`)
	versioned   = regexp.MustCompile(`^(\d+)_.*\.sql$`)
)

// migrationsDir picks the project's migrations directory (slash, relative
// to root): atlas.hcl's dir, else sqlc's schema dir, else the directory with
// the most versioned .sql files, else "migrations".
func migrationsDir(root string) (dir, source string) {
	if b, err := os.ReadFile(filepath.Join(root, "atlas.hcl")); err == nil {
		if m := atlasDirURL.FindSubmatch(b); m != nil {
			return cleanRel(string(m[1])), "atlas.hcl migration dir"
		}
	}
	for _, name := range []string{"sqlc.yaml", "sqlc.yml", "sqlc.json"} {
		if b, err := os.ReadFile(filepath.Join(root, name)); err == nil {
			if m := sqlcSchema.FindSubmatch(b); m != nil {
				d := cleanRel(strings.TrimSpace(string(m[1])))
				if strings.HasSuffix(d, ".sql") {
					d = cleanRel(filepath.ToSlash(filepath.Dir(d)))
				}
				return d, name + " schema"
			}
		}
	}
	counts := map[string]int{}
	_ = walkModule(root, func(p string, d fs.DirEntry) error {
		if versioned.MatchString(d.Name()) {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			counts[filepath.ToSlash(rel)]++
		}
		return nil
	})
	best := ""
	for d, n := range counts {
		if best == "" || n > counts[best] || (n == counts[best] && d < best) {
			best = d
		}
	}
	if best != "" {
		return best, fmt.Sprintf("%d versioned .sql files there", counts[best])
	}
	if b, err := os.ReadFile(filepath.Join(root, "Makefile")); err == nil {
		if m := makefileDir.FindSubmatch(b); m != nil {
			return cleanRel(string(m[1])), "Makefile migration command"
		}
	}
	return "migrations", "default (no migrations found)"
}

var (
	// goose -dir X, migrate -path X, atlas migrate ... --dir file://X
	makefileDir   = regexp.MustCompile(`(?:goose\b[^\n]*?-dir[ =]|migrate\b[^\n]*?-path[ =]|atlas migrate\b[^\n]*?--dir[ =]"?file://)"?([\w./-]+)`)
	makefileTools = []struct {
		re   *regexp.Regexp
		tool string
	}{
		{regexp.MustCompile(`\batlas migrate\b`), "atlas"},
		{regexp.MustCompile(`\bgoose\b`), "goose"},
		{regexp.MustCompile(`\bmigrate\b[^\n]*-path`), "migrate"},
	}
)

// makefileTool finds the migration tool a Makefile target runs.
func makefileTool(root string) (tool, source string) {
	b, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		return "", ""
	}
	for _, t := range makefileTools {
		if t.re.Match(b) {
			return t.tool, "Makefile runs " + t.tool
		}
	}
	return "", ""
}

func cleanRel(p string) string {
	p = strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p)), "./")
	if p == "" {
		return "."
	}
	return p
}

// migrationFormat reads the migration directory's files: atlas.sum means
// atlas, a goose annotation goose, .up.sql/.down.sql pairs golang-migrate.
// Empty when the files say nothing.
func migrationFormat(root, dir string) (format, source string) {
	abs := filepath.Join(root, filepath.FromSlash(dir))
	if _, err := os.Stat(filepath.Join(root, "atlas.hcl")); err == nil {
		return "atlas", "atlas.hcl"
	}
	if _, err := os.Stat(filepath.Join(abs, "atlas.sum")); err == nil {
		return "atlas", dir + "/atlas.sum"
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return "", ""
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for _, n := range names {
		if !strings.HasSuffix(n, ".sql") {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(abs, n)); err == nil && strings.Contains(string(b), "-- +goose Up") {
			return "goose", "goose annotations in " + dir + "/" + n
		}
	}
	for _, n := range names {
		if strings.HasSuffix(n, ".up.sql") && contains(names, strings.TrimSuffix(n, ".up.sql")+".down.sql") {
			return "migrate", ".up.sql/.down.sql pairs in " + dir
		}
	}
	return "", ""
}
