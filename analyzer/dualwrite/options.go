package dualwrite

import (
	"flag"
	"fmt"
	"go/types"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/outboxify/outboxify/analyzer/catalog"
	"github.com/outboxify/outboxify/analyzer/config"
)

// Options configure an analyzer built by NewAnalyzer.
type Options struct {
	// Resolver maps calls the per-package facts cannot follow (interface
	// methods) to the effects of their implementations in the whole
	// program. The CLI sets it (ProgramResolver); go vet and golangci-lint
	// cannot, so their findings lack those that needed it.
	Resolver Resolver
	// Config is the .outboxify.yaml to use. Nil: each package's module root
	// is searched for one (flags -config, -publishers, -writers, -exclude
	// extend or replace it).
	Config *config.Config
	// Tests analyzes _test.go files too.
	Tests bool
}

// Resolver gives the effects of calling fn when the facts cannot: for an
// interface method, the union of its implementations' effects (iface true).
type Resolver interface {
	Effects(fn *types.Func) (eff *Effects, iface bool)
}

// options is an analyzer's live configuration: Options plus its flags.
type options struct {
	Options
	configFile string
	publishers string
	writers    string
	exclude    string

	mu    sync.Mutex
	cache map[string]loaded // module root or config file -> catalog
}

type loaded struct {
	cat *catalog.Catalog
	cfg *config.Config
	err error
}

func (o *options) flags(fs *flag.FlagSet) {
	fs.StringVar(&o.configFile, "config", "", "path of the .outboxify.yaml to use (default: the one at each package's module root)")
	fs.StringVar(&o.publishers, "publishers", "", "comma-separated full names of extra publish calls")
	fs.StringVar(&o.writers, "writers", "", "comma-separated full names of extra DB write calls")
	fs.StringVar(&o.exclude, "exclude", "", "comma-separated module-relative paths or globs to skip")
	fs.BoolVar(&o.Tests, "tests", o.Tests, "analyze _test.go files too")
}

// catalogFor returns the catalog and configuration that apply to a package.
func (o *options) catalogFor(pass *analysis.Pass) (*catalog.Catalog, *config.Config, error) {
	key, load := "", func() (*config.Config, error) { return o.Config, nil }
	switch {
	case o.Config != nil:
		key = "options"
	case o.configFile != "":
		key = o.configFile
		load = func() (*config.Config, error) {
			data, err := readFile(o.configFile)
			if err != nil {
				return nil, fmt.Errorf("reading configuration: %w", err)
			}
			c, err := config.Parse(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", o.configFile, err)
			}
			c.File = o.configFile
			c.Root, _ = config.ModuleRoot(filepath.Dir(o.configFile))
			return c, nil
		}
	default:
		dir := packageDir(pass)
		if dir == "" {
			key = "none"
			load = func() (*config.Config, error) { return &config.Config{}, nil }
			break
		}
		root, err := config.ModuleRoot(dir)
		if err != nil { // GOROOT packages, files outside a module: no configuration
			key = "none"
			load = func() (*config.Config, error) { return &config.Config{}, nil }
			break
		}
		key = root
		load = func() (*config.Config, error) { return config.Load(root) }
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if l, ok := o.cache[key]; ok {
		return l.cat, l.cfg, l.err
	}
	cfg, err := load()
	var cat *catalog.Catalog
	if err == nil {
		cfg = o.withFlags(cfg)
		cat = catalog.Default().With(cfg.Rows())
	}
	if o.cache == nil {
		o.cache = map[string]loaded{}
	}
	o.cache[key] = loaded{cat, cfg, err}
	return cat, cfg, err
}

func (o *options) withFlags(c *config.Config) *config.Config {
	if o.publishers == "" && o.writers == "" && o.exclude == "" && !o.Tests {
		return c
	}
	cp := *c
	for _, n := range splitList(o.publishers) {
		cp.Publishers = append(cp.Publishers, config.Entry{Name: n})
	}
	for _, n := range splitList(o.writers) {
		cp.Writers = append(cp.Writers, config.Entry{Name: n})
	}
	cp.Exclude = append(cp.Exclude, splitList(o.exclude)...)
	cp.Tests = cp.Tests || o.Tests
	return &cp
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func packageDir(pass *analysis.Pass) string {
	for _, f := range pass.Files {
		if name := pass.Fset.File(f.Pos()).Name(); name != "" {
			return filepath.Dir(name)
		}
	}
	return ""
}
