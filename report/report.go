package report

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/analyzer/consumer"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan"
)

// Options tune Build.
type Options struct {
	// Patterns select the packages to scan (default ./...).
	Patterns []string
	// Tests includes _test.go files in the scan.
	Tests bool
	// Program, when set, is the module already loaded and scanned with
	// these patterns as it is on disk now (fix's own load): Build reads it
	// instead of loading the packages again.
	Program *scan.Program
}

// Report is the contract, as data. Every field says whether it was found
// and, when not, what to run.
type Report struct {
	Module      string      `json:"module"`
	DualWrites  DualWrites  `json:"dual_writes"`
	Outbox      Outbox      `json:"outbox"`
	Relay       Relay       `json:"relay"`
	OrderingKey OrderingKey `json:"ordering_key"`
	Consumers   Consumers   `json:"consumers"`
	Ops         Ops         `json:"ops"`
	// LoadErrors: the packages did not load or type-check, so dual writes
	// and consumers were not checked (the CLI exits 2).
	LoadErrors []string `json:"load_errors"`
	// Complete: all six fields found. DualWritesRemaining: the CI gate.
	Complete            bool `json:"complete"`
	DualWritesRemaining bool `json:"dual_writes_remaining"`
}

// Field is what every contract line has.
type Field struct {
	Found   bool   `json:"found"`
	Missing string `json:"missing,omitempty"` // what to run when not found
	Text    string `json:"text"`              // the line as printed after its label
}

// DualWrites: what fix replaced and what remains.
type DualWrites struct {
	Field
	FixesRecorded bool          `json:"fixes_recorded"` // .outboxify/fixes.json exists
	Replaced      []Replacement `json:"replaced"`
	Manual        []Manual      `json:"manual"`
	Remaining     []Remaining   `json:"remaining"`
	// Scanned is false when the packages did not load, so Remaining is
	// not known.
	Scanned bool `json:"scanned"`
}

// Remaining is a dual write scan still finds.
type Remaining struct {
	Location
	Rule    string `json:"rule"`
	Message string `json:"message"`
	Call    string `json:"call"`
}

// Outbox: the migration and the transactions that write outbox rows.
type Outbox struct {
	Field
	Migration    string      `json:"migration"`
	Writer       string      `json:"writer"` // writer package directory
	Transactions int         `json:"transactions"`
	Sites        []WriteSite `json:"sites"`
}

// Relay: how rows get to the broker.
type Relay struct {
	Field
	Mode     string     `json:"mode"` // polling-leader | polling-shards | polling-unlocked | debezium | managed-cdc | ""
	Shards   int        `json:"shards"`
	Topics   string     `json:"topics,omitempty"`
	Store    string     `json:"store,omitempty"`
	Evidence []Location `json:"evidence"`
}

// OrderingKey: aggregate_id and the broker key.
type OrderingKey struct {
	Field
	Column       string   `json:"column"`
	BrokerKeySet bool     `json:"broker_key_set"`
	Keyless      string   `json:"keyless_broker,omitempty"` // a broker without message keys
	Evidence     Location `json:"evidence"`
}

// Consumers: inbox, idempotency and idempotency keys.
type Consumers struct {
	Field
	Inbox      []string          `json:"inbox"`      // packages whose consumers use the inbox
	Idempotent []string          `json:"idempotent"` // packages whose consumers only upsert
	Unguarded  []ConsumerProblem `json:"unguarded"`  // OBX101
	Keyed      []string          `json:"keyed"`      // external APIs given an idempotency key
	Unkeyed    []ConsumerProblem `json:"unkeyed"`    // OBX102
	Count      int               `json:"count"`      // consumer entry points found
}

// ConsumerProblem is a consumer finding.
type ConsumerProblem struct {
	Location
	Package string `json:"package"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// Ops: cleanup, alert, replay runbook.
type Ops struct {
	Field
	Cleanup       string `json:"cleanup"`
	CleanupSource string `json:"cleanup_source,omitempty"`
	Alert         string `json:"alert"`
	AlertKind     string `json:"alert_kind,omitempty"` // oldest-unpublished | replication-slot-lag
	AlertSource   string `json:"alert_source,omitempty"`
	Runbook       string `json:"runbook"`
}

// DualWritesRemain reports whether scan still finds dual writes (or, when
// the packages did not load, fix left some): the CLI exits 1.
func (r *Report) DualWritesRemain() bool {
	if r.DualWrites.Scanned {
		return len(r.DualWrites.Remaining) > 0
	}
	return len(r.DualWrites.Manual) > 0
}

// allFound reports whether all six fields were found.
func (r *Report) allFound() bool {
	for _, f := range r.fields() {
		if !f.Found {
			return false
		}
	}
	return true
}

func (r *Report) fields() []*Field {
	return []*Field{&r.DualWrites.Field, &r.Outbox.Field, &r.Relay.Field, &r.OrderingKey.Field, &r.Consumers.Field, &r.Ops.Field}
}

// Build derives the report for the module containing dir.
func Build(dir string, opts Options) (*Report, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	root, module, err := findModule(abs)
	if err != nil {
		return nil, err
	}
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	prog, scanned, err := opts.Program, true, error(nil)
	if prog == nil {
		prog, scanned, err = load(abs, patterns, opts.Tests)
	}
	var loadErr *scan.LoadError
	switch {
	case errors.As(err, &loadErr):
		// Generated code may need `go get` first: report the files
		// anyway, and what could not be checked.
		prog = &scan.Program{Dir: abs}
	case err != nil:
		return nil, err
	}
	cfg, err := config.Load(abs)
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	cons, err := consumers(prog, consumer.NewAnalyzer(consumer.Options{Config: cfg, Tests: opts.Tests}))
	if err != nil {
		return nil, err
	}
	t, err := walkTree(root)
	if err != nil {
		return nil, fmt.Errorf("report: reading %s: %w", root, err)
	}
	fx, recorded, err := readFixes(root)
	if err != nil {
		return nil, err
	}
	rel := func(filename string) string { return scan.RelPath(root, filename) }

	r := &Report{Module: module, LoadErrors: []string{}}
	if loadErr != nil {
		for _, e := range loadErr.Errors {
			if e.Pos != "" && filepath.IsAbs(e.Pos) {
				e.Pos = scan.RelPath(abs, e.Pos)
			}
			r.LoadErrors = append(r.LoadErrors, e.Error())
		}
	}
	r.DualWrites = DualWrites{FixesRecorded: recorded, Replaced: nonNil(fx.Replaced), Manual: nonNil(fx.Manual), Scanned: scanned, Remaining: []Remaining{}}
	for _, f := range prog.Findings {
		if !isDualWriteRule(f.Rule) {
			continue
		}
		r.DualWrites.Remaining = append(r.DualWrites.Remaining, Remaining{
			Location: Location{File: rel(f.Publish.Position.Filename), Line: f.Publish.Position.Line},
			Rule:     f.Rule, Message: f.Message, Call: f.Publish.Name,
		})
	}

	mig, _ := t.migration()
	wdir := t.writerDir()
	sites, txs := t.outboxWrites(module, wdir)
	r.Outbox = Outbox{Migration: mig, Writer: wdir, Transactions: txs, Sites: nonNil(sites)}

	var aggTypes []string
	for _, s := range sites {
		if s.AggregateType != "" && !slices.Contains(aggTypes, s.AggregateType) {
			aggTypes = append(aggTypes, s.AggregateType)
		}
	}
	sort.Strings(aggTypes)
	ri := t.relay(aggTypes)
	r.Relay = Relay{Mode: ri.Mode, Shards: ri.Shards, Topics: ri.Topics, Store: ri.Store, Evidence: nonNil(ri.Evidence)}

	set, keyless, at, ok := t.orderingKey(ri)
	r.OrderingKey = OrderingKey{BrokerKeySet: set, Keyless: keyless, Evidence: at}
	if ok {
		r.OrderingKey.Column = "aggregate_id"
	}

	r.Consumers = summarizeConsumers(cons, module, rel)

	o := t.ops(ri)
	r.Ops = Ops{Cleanup: o.Cleanup, CleanupSource: o.CleanupAt, Alert: o.Alert, AlertKind: o.AlertKind, AlertSource: o.AlertAt, Runbook: o.Runbook}
	if ri.Mode == RelayDebezium && r.Ops.Cleanup == "" && t.writerDeletes(wdir) {
		r.Ops.Cleanup, r.Ops.CleanupSource = "in the inserting transaction (the writer deletes the row; the WAL carries it)", wdir
	}
	r.fill()
	r.Complete, r.DualWritesRemaining = r.allFound(), r.DualWritesRemain()
	return r, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func isDualWriteRule(rule string) bool {
	switch rule {
	case dualwrite.RuleAfterWrite, dualwrite.RuleAfterCommit, dualwrite.RuleInTx, dualwrite.RuleBeforeWrite,
		dualwrite.RuleAsync, dualwrite.RuleOutboxOther:
		return true
	}
	return false
}

// findModule walks up from dir to the go.mod and reads the module path.
func findModule(dir string) (root, module string, err error) {
	for d := dir; ; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "go.mod"))
		if err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if f := strings.Fields(line); len(f) >= 2 && f[0] == "module" {
					return d, strings.Trim(f[1], `"`), nil
				}
			}
			return "", "", fmt.Errorf("report: %s/go.mod has no module line", d)
		}
		if filepath.Dir(d) == d {
			return "", "", fmt.Errorf("report: %s is not inside a Go module (no go.mod)", dir)
		}
	}
}

// load runs scan; scanned is false when the packages did not load.
func load(dir string, patterns []string, tests bool) (*scan.Program, bool, error) {
	prog, err := scan.Load(dir, patterns, scan.Options{Tests: tests})
	if err != nil {
		var le *scan.LoadError
		if errors.As(err, &le) {
			return nil, false, err
		}
		return nil, false, fmt.Errorf("report: %w", err)
	}
	return prog, true, nil
}

// consumers runs the consumer analyzer over the loaded root packages.
func consumers(prog *scan.Program, a *analysis.Analyzer) ([]consumer.Consumer, error) {
	if len(prog.Packages) == 0 {
		return nil, nil
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, prog.Packages, nil)
	if err != nil {
		return nil, fmt.Errorf("report: consumer rule: %w", err)
	}
	var out []consumer.Consumer
	seen := map[string]bool{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			return nil, fmt.Errorf("report: consumer rule on %s: %w", act.Package.PkgPath, act.Err)
		}
		res, _ := act.Result.(*consumer.Result)
		if res == nil {
			continue
		}
		for _, c := range res.Consumers {
			if k := c.Call.Position.String(); !seen[k] { // test variants repeat files
				seen[k] = true
				out = append(out, c)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Call.Position, out[j].Call.Position
		return a.Filename < b.Filename || a.Filename == b.Filename && a.Line < b.Line
	})
	return out, nil
}

func summarizeConsumers(cs []consumer.Consumer, module string, rel func(string) string) Consumers {
	out := Consumers{Inbox: []string{}, Idempotent: []string{}, Unguarded: []ConsumerProblem{}, Keyed: []string{}, Unkeyed: []ConsumerProblem{}, Count: len(cs)}
	pkg := func(p string) string {
		if s, ok := strings.CutPrefix(p, module+"/"); ok {
			return s
		}
		return p
	}
	add := func(list *[]string, s string) {
		if !slices.Contains(*list, s) {
			*list = append(*list, s)
		}
	}
	for _, c := range cs {
		if path.Base(c.Package) == "inbox" {
			// The inbox package's own consumer glue is the tool, not a
			// service using it.
			out.Count--
			continue
		}
		loc := Location{File: rel(c.Call.Position.Filename), Line: c.Call.Position.Line}
		switch c.Guard {
		case consumer.GuardInbox:
			add(&out.Inbox, pkg(c.Package))
		case consumer.GuardIdempotent:
			add(&out.Idempotent, pkg(c.Package))
		case consumer.GuardNone:
			w := c.Writes[0]
			out.Unguarded = append(out.Unguarded, ConsumerProblem{Location: loc, Package: pkg(c.Package), Rule: dualwrite.RuleConsumerInbox,
				Message: fmt.Sprintf("handler %s writes without the inbox (%s at %s:%d)", c.Handler, w.Name, rel(w.Position.Filename), w.Position.Line)})
		}
		for _, e := range c.External {
			name := apiName(e.Call.Name)
			if e.Keyed {
				add(&out.Keyed, name)
				continue
			}
			out.Unkeyed = append(out.Unkeyed, ConsumerProblem{Location: Location{File: rel(e.Call.Position.Filename), Line: e.Call.Position.Line},
				Package: pkg(c.Package), Rule: dualwrite.RuleExternalNoKey, Message: name + " called without an idempotency key"})
		}
	}
	return out
}

// apiName shortens "(*example.com/shop/internal/payment.Client).Charge" to
// "payment.Client.Charge".
func apiName(full string) string {
	s := strings.NewReplacer("(*", "", "(", "", ")", "").Replace(full)
	dir, base := path.Split(s)
	_ = dir
	return base
}
