package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// FileName is the configuration file looked up at the module root.
const FileName = ".outboxify.yaml"

// Config is the parsed .outboxify.yaml.
type Config struct {
	// Publishers are extra publish calls: a team's event bus, by full name
	// ("(*example.com/app/bus.Bus).Emit").
	Publishers []Entry `yaml:"publishers"`
	// Writers are extra DB writes: repositories, or a cache write that is
	// the store of record ("(github.com/redis/go-redis/v9.cmdable).Set").
	Writers []Entry `yaml:"writers"`
	// Transactions are the team's own transaction helpers and handles,
	// so no name decides what a transaction is: a function that runs its
	// callback in a transaction and commits (kind run, callback = the
	// argument index), one that begins (its first result is the
	// transaction), commits or rolls back.
	Transactions []TxEntry `yaml:"transactions"`
	// Retry lists functions that run the callback they are given again
	// until it succeeds: a publish in it is OBX005 next to a write.
	Retry []Entry `yaml:"retry"`
	// Outbox lists the team's own outbox writers: calls that insert an
	// outbox row on the transaction (or handle) they are given, so a
	// publish they replace is no dual write. The handle is the argument
	// Handle (0-based; default: the first argument that is not a
	// context.Context, else the receiver). Decides before any name does.
	Outbox []OutboxEntry `yaml:"outbox"`
	// Registrations lists the team's own routers, schedulers and hook
	// registries: calls that store the callback argument Callback (and
	// any after it) to run later, on a path of its own. Registering runs
	// none of it; the callback is checked as its own entry point.
	// Decides before any name, and for methods of interfaces, whose body
	// cannot be read.
	Registrations []RegEntry `yaml:"registrations"`
	// External lists the team's external APIs (payment, email, ... clients)
	// that a consumer handler must call with an idempotency key (OBX102).
	External []Entry `yaml:"external"`
	// Exclude lists module-relative slash paths or globs to skip:
	// "internal/legacy/...", "gen/*.go", "**/mock_*.go".
	Exclude []string `yaml:"exclude"`
	// Tests analyzes _test.go files too.
	Tests bool `yaml:"tests"`

	// Root is the module root the file was found at ("" if none).
	Root string `yaml:"-"`
	// File is the file read ("" if there was none).
	File string `yaml:"-"`
}

// Entry is one configured call: a full name, optionally with its store or broker.
// In YAML it is either the name alone or a mapping {name, store, broker}.
type Entry struct {
	Name   string `yaml:"name"`
	Store  string `yaml:"store"`
	Broker string `yaml:"broker"`
}

// OutboxEntry is one configured outbox writer. In YAML it is the name alone
// or a mapping {name, handle}.
type OutboxEntry struct {
	Name   string `yaml:"name"`
	Handle *int   `yaml:"handle"`
}

func (e *OutboxEntry) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		e.Name = n.Value
		return nil
	}
	type plain OutboxEntry
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*e = OutboxEntry(p)
	return nil
}

// RegEntry is one configured registration call.
type RegEntry struct {
	Name string `yaml:"name"`
	// Callback is the argument index of the first callback it stores.
	Callback *int `yaml:"callback"`
}

// TxEntry is one configured transaction call.
type TxEntry struct {
	Name string `yaml:"name"`
	// Kind is run, begin, commit or rollback.
	Kind string `yaml:"kind"`
	// Callback is the argument index of the callback a run helper runs.
	Callback *int `yaml:"callback"`
	// Store is the store the transaction is on (default sql).
	Store string `yaml:"store"`
}

func (e *Entry) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		e.Name = n.Value
		return nil
	}
	type plain Entry
	var p plain
	if err := n.Decode(&p); err != nil {
		return err
	}
	*e = Entry(p)
	return nil
}

// Load finds the module root from dir (walking up to the go.mod) and reads
// .outboxify.yaml there. No file is not an error: the result is empty.
func Load(dir string) (*Config, error) {
	root, err := ModuleRoot(dir)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(root, FileName)
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{Root: root}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	c.Root, c.File = root, file
	return c, nil
}

// ModuleRoot returns the directory of the go.mod governing dir.
func ModuleRoot(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("finding module root of %s: %w", dir, err)
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("finding module root of %s: no go.mod in it or its parents", dir)
		}
		d = parent
	}
}

// Parse reads the YAML text of a configuration. Unknown keys are errors.
func Parse(data []byte) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, errEOF) {
		return nil, fmt.Errorf("parsing configuration: %w", err)
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &c, nil
}

var errEOF = yaml.NewDecoder(bytes.NewReader(nil)).Decode(new(any)) // io.EOF: an empty file

func (c *Config) validate() error {
	for _, group := range []struct {
		key     string
		entries []Entry
	}{{"publishers", c.Publishers}, {"writers", c.Writers}, {"retry", c.Retry}, {"external", c.External}} {
		for i, e := range group.entries {
			if e.Name == "" {
				return fmt.Errorf("%s[%d]: name is empty", group.key, i)
			}
			if catalog.PackageOf(e.Name) == "" {
				return fmt.Errorf("%s[%d]: %q is not a full name like \"(*example.com/app/bus.Bus).Emit\" or \"example.com/app/bus.Emit\"", group.key, i, e.Name)
			}
		}
	}
	for i, o := range c.Outbox {
		if catalog.PackageOf(o.Name) == "" {
			return fmt.Errorf("outbox[%d]: %q is not a full name like \"(*example.com/app/events.Store).Append\"", i, o.Name)
		}
		if o.Handle != nil && *o.Handle < 0 {
			return fmt.Errorf("outbox[%d]: handle must be an argument index (0 or more)", i)
		}
	}
	for i, r := range c.Registrations {
		if catalog.PackageOf(r.Name) == "" {
			return fmt.Errorf("registrations[%d]: %q is not a full name like \"(*example.com/app/jobs.Scheduler).Every\"", i, r.Name)
		}
		if r.Callback == nil || *r.Callback < 0 {
			return fmt.Errorf("registrations[%d]: callback is required: the index of the callback argument it stores", i)
		}
	}
	for i, t := range c.Transactions {
		if catalog.PackageOf(t.Name) == "" {
			return fmt.Errorf("transactions[%d]: %q is not a full name like \"(*example.com/app/db.DB).WithTx\"", i, t.Name)
		}
		switch t.Kind {
		case "run":
			if t.Callback == nil || *t.Callback < 0 {
				return fmt.Errorf("transactions[%d]: kind run needs callback: the index of the argument it runs in the transaction", i)
			}
		case "begin", "commit", "rollback":
		default:
			return fmt.Errorf("transactions[%d]: kind %q: want run, begin, commit or rollback", i, t.Kind)
		}
	}
	for i, p := range c.Exclude {
		if _, err := path.Match(strings.ReplaceAll(p, "**", "*"), ""); err != nil {
			return fmt.Errorf("exclude[%d]: bad pattern %q: %w", i, p, err)
		}
	}
	return nil
}

// Rows returns the configured calls as catalog rows.
func (c *Config) Rows() []catalog.Entry {
	if c == nil {
		return nil
	}
	var out []catalog.Entry
	for _, e := range c.Publishers {
		b := e.Broker
		if b == "" {
			b = "custom"
		}
		out = append(out, catalog.Entry{Name: e.Name, Kind: catalog.Publish, Broker: b, SQL: catalog.NoArg, Func: catalog.NoArg, Handle: catalog.NoArg})
	}
	for _, e := range c.Writers {
		s := e.Store
		if s == "" {
			s = catalog.SQL
		}
		out = append(out, catalog.Entry{Name: e.Name, Kind: catalog.Write, Store: s, SQL: catalog.NoArg, Func: catalog.NoArg, Handle: catalog.NoArg})
	}
	for _, t := range c.Transactions {
		s := t.Store
		if s == "" {
			s = catalog.SQL
		}
		row := catalog.Entry{Name: t.Name, Store: s, SQL: catalog.NoArg, Func: catalog.NoArg, Handle: catalog.NoArg}
		switch t.Kind {
		case "run":
			row.Kind, row.Func = catalog.TxFunc, *t.Callback
		case "begin":
			row.Kind = catalog.Begin
		case "commit":
			row.Kind = catalog.Commit
		case "rollback":
			row.Kind = catalog.Rollback
		}
		out = append(out, row)
	}
	for _, r := range c.Registrations {
		out = append(out, catalog.Entry{Name: r.Name, Kind: catalog.Later, SQL: catalog.NoArg, Func: *r.Callback, Handle: catalog.NoArg})
	}
	for _, e := range c.Retry {
		out = append(out, catalog.Entry{Name: e.Name, Kind: catalog.Retry, SQL: catalog.NoArg, Func: catalog.NoArg, Handle: catalog.NoArg})
	}
	for _, o := range c.Outbox {
		h := catalog.NoArg
		if o.Handle != nil {
			h = *o.Handle
		}
		out = append(out, catalog.Entry{Name: o.Name, Kind: catalog.OutboxInsert, Store: catalog.SQL, SQL: catalog.NoArg, Func: catalog.NoArg, Handle: h})
	}
	return out
}

// ExternalNames returns the full names of the configured external APIs.
func (c *Config) ExternalNames() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, e := range c.External {
		out = append(out, e.Name)
	}
	return out
}

// Excluded reports whether a file (absolute, or relative to the module
// root) matches an exclude pattern. Patterns are module-relative slash paths:
// "dir/..." or "dir/**" match everything below dir, "*" matches within one
// element, "**/" any number of leading directories.
func (c *Config) Excluded(file string) bool {
	if c == nil || len(c.Exclude) == 0 {
		return false
	}
	rel := file
	if filepath.IsAbs(file) && c.Root != "" {
		r, err := filepath.Rel(c.Root, file)
		if err != nil || strings.HasPrefix(r, "..") {
			return false
		}
		rel = r
	}
	rel = filepath.ToSlash(rel)
	for _, p := range c.Exclude {
		if matchPath(p, rel) {
			return true
		}
	}
	return false
}

func matchPath(pattern, rel string) bool {
	pattern = strings.TrimPrefix(pattern, "./")
	for _, suffix := range []string{"/...", "/**"} {
		if strings.HasSuffix(pattern, suffix) {
			dir := strings.TrimSuffix(pattern, suffix)
			return rel == dir || strings.HasPrefix(rel, dir+"/") || matchPath(dir+"/*", rel)
		}
	}
	if strings.HasPrefix(pattern, "**/") {
		tail := strings.TrimPrefix(pattern, "**/")
		parts := strings.Split(rel, "/")
		for i := range parts {
			if ok, _ := path.Match(tail, strings.Join(parts[i:], "/")); ok {
				return true
			}
		}
		return false
	}
	if ok, _ := path.Match(pattern, rel); ok {
		return true
	}
	// a directory pattern matches the files below it
	return strings.HasPrefix(rel, strings.TrimSuffix(pattern, "/")+"/")
}
