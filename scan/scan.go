package scan

import (
	"fmt"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/analyzer/consumer"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// Options tune Load. The zero value scans non-test files with the
// dual-write analyzer.
type Options struct {
	// Tests includes _test.go files (and external test packages).
	Tests bool
	// Env is the environment for the go command; nil means os.Environ().
	Env []string
	// AllBodies keeps the function bodies of every dependency. By default
	// only root packages and dependencies that reach a catalogued client
	// library (or a configured publisher/writer) keep them: the others
	// cannot write or publish, and dropping them halves load time.
	AllBodies bool
	// Analyzer replaces the dual-write and consumer analyzers (tests of
	// the loader). Its result type must be *dualwrite.Result.
	Analyzer *analysis.Analyzer
	// Partial analyses the root packages that type-check when others do
	// not (as golangci-lint does with typecheck errors): Load then returns
	// a Program whose Broken lists the errors, instead of a *LoadError. A
	// load where no root package type-checks is still a *LoadError.
	Partial bool
	// WholeModule loads every package of the main module(s) of the
	// packages asked for, so that calls through the module's interfaces
	// resolve against implementations outside them, then keeps only the
	// findings of the packages asked for. A package outside them that does
	// not type-check is left out and named in OutsideBroken.
	WholeModule bool
	// Progress, when set, is told each stage of a long load as it ends
	// (packages loaded and type-checked, packages analysed); the CLI
	// prints it on a terminal.
	Progress func(stage string)
	// Overlay maps file names to contents that replace (or add to) the
	// files on disk, as packages.Config.Overlay: fix loads the module as it
	// would leave it before writing anything.
	Overlay map[string][]byte
}

// Program is a loaded, analyzed program.
type Program struct {
	// Dir is the absolute directory the patterns were resolved in (-C).
	Dir string
	// Fset holds the positions of every loaded file.
	Fset *token.FileSet
	// Packages are the root packages matched by the patterns, with full
	// syntax and type information (test variants too when Options.Tests).
	Packages []*packages.Package
	// Findings of all root packages, deduplicated and sorted by position:
	// the dual-write rules and the consumer rules (OBX101, OBX102).
	Findings []dualwrite.Finding
	// Consumers are the broker consumers found in the root packages, with
	// their guards (what `report` lists); empty when Options.Analyzer is set.
	Consumers []consumer.Consumer
	// Broken lists the package errors of a partial load (Options.Partial):
	// the root packages they make ill-typed were not analysed.
	Broken []packages.Error
	// Skipped are the import paths of the root packages left out of the
	// analysis because they do not type-check.
	Skipped []string
	// DependencyErrors of a partial load are the errors of dependencies
	// (not root packages): the roots using them were analysed all the same.
	DependencyErrors []packages.Error
	// Unresolved are methods of the program's own interfaces that were
	// called but have no implementation among the loaded packages: a dual
	// write behind them cannot be seen (load the packages that implement
	// them, or name their effects in .outboxify.yaml).
	Unresolved []string
	// Errored are the root packages of a partial load left out because
	// they do not type-check, with their errors (Broken lists them too).
	Errored []*packages.Package
	// OutsideBroken are packages of the module outside those asked for
	// (Options.WholeModule) left out because they do not type-check: calls
	// into them were not followed.
	OutsideBroken []string
	// WorkspaceOff, when set, says that the packages did not type-check in
	// their go.work workspace and were loaded without it (GOWORK=off).
	WorkspaceOff string

	partial bool
	// how the program was loaded and analysed: Recheck analyses a changed
	// program the same way
	cfg      *config.Config
	tests    bool
	patterns []string
	analyzer *analysis.Analyzer
	env      []string
	widened  bool

	files map[string]fileInfo  // by file name (indexFiles)
	decls map[string]LineRange // function bodies by full name (indexDecls)
}

// LoadError reports packages that could not be loaded or type-checked.
type LoadError struct {
	Dir    string // positions under Dir print relative to it
	Errors []packages.Error
}

func (e *LoadError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d package error(s), cannot scan:", len(e.Errors))
	b.WriteString(FormatErrors(e.Dir, e.Errors))
	return b.String()
}

// FormatErrors lists package errors one per line (each line starts with a
// newline and a tab), positions under dir relative to it.
func FormatErrors(dir string, errs []packages.Error) string {
	var b strings.Builder
	for _, err := range errs {
		b.WriteString("\n\t")
		if dir != "" && strings.HasPrefix(err.Pos, dir+string(filepath.Separator)) {
			err.Pos = RelPath(dir, err.Pos)
		}
		b.WriteString(err.Error())
	}
	return b.String()
}

// loadMode is everything the analyzer (facts over dependencies) and the
// rewriter (syntax of root packages) need.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedTypes | packages.NeedSyntax |
	packages.NeedTypesInfo | packages.NeedTypesSizes | packages.NeedModule

// Load loads the packages matching patterns (default ./...) from dir and
// runs the dual-write analyzer over them and their dependencies.
func Load(dir string, patterns []string, opts Options) (*Program, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("scan: directory %s: %w", dir, err)
	}
	if st, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("scan: %w", err)
	} else if !st.IsDir() {
		return nil, fmt.Errorf("scan: %s is not a directory", dir)
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg, err := loadConfig(abs)
	if err != nil {
		return nil, err
	}
	tests := opts.Tests || cfg != nil && cfg.Tests
	env := opts.Env
	if env == nil {
		env = os.Environ()
	}
	fset := token.NewFileSet()
	pcfg := &packages.Config{
		Mode:  loadMode,
		Dir:   abs,
		Env:   env,
		Tests: tests,
		Fset:  fset,
	}
	if opts.Overlay != nil {
		pcfg.Overlay = opts.Overlay
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	start := time.Now()
	given := patterns
	pkgs, patterns, asked, err := loadWidened(pcfg, given, cfg, opts, progress)
	// A go.work whose other members need a module that cannot be downloaded
	// breaks every package of the workspace, the asked module's too: go
	// list cannot build the workspace's module graph (or refuses a -mod
	// flag the module alone accepts). The module on its own may load (its
	// go.mod replaces or requires the members it uses), so it is tried once
	// without the workspace, and kept when fewer of its packages fail; the
	// output says so.
	var workspaceOff string
	if n := brokenRoots(pkgs, asked); err != nil || n > 0 {
		if ws := workspaceFile(abs, env); ws != "" {
			off := *pcfg
			off.Env = append(slices.Clip(env), "GOWORK=off")
			off.Fset = token.NewFileSet()
			what := fmt.Sprintf("%d package(s) do not type-check", n)
			if err != nil {
				what = "the packages cannot be loaded"
			}
			progress(fmt.Sprintf("%s in the workspace %s; trying the module without it (GOWORK=off) ...", what, ws))
			if pkgs2, patterns2, asked2, err2 := loadWidened(&off, given, cfg, opts, progress); err2 == nil {
				if m := brokenRoots(pkgs2, asked2); err != nil || m < n {
					workspaceOff = fmt.Sprintf("%s in the workspace %s (%d without it): analysed the module on its own, as with GOWORK=off", what, ws, m)
					pkgs, patterns, asked, env, fset, err = pkgs2, patterns2, asked2, off.Env, off.Fset, nil
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	var outside []string
	if asked != nil {
		// packages loaded only to resolve calls: one that does not
		// type-check is left out and named, it was not asked for
		var kept []*packages.Package
		for _, p := range pkgs {
			if !asked[p.PkgPath] && len(p.Errors) > 0 {
				outside = append(outside, p.ID)
				continue
			}
			kept = append(kept, p)
		}
		pkgs = kept
	}
	prog := &Program{Dir: abs, Fset: fset, OutsideBroken: outside, WorkspaceOff: workspaceOff, partial: opts.Partial,
		cfg: cfg, tests: tests, patterns: patterns, analyzer: opts.Analyzer, env: env, widened: asked != nil}
	return prog.finish(pkgs, asked, start, progress)
}

// finish analyses loaded packages: a partial load keeps the roots that
// type-check, the analyzers run, and the findings get their fingerprints.
// Load and Recheck share it.
func (prog *Program) finish(pkgs []*packages.Package, asked map[string]bool, start time.Time, progress func(string)) (*Program, error) {
	var broken, depErrs []packages.Error
	var errored []*packages.Package
	var skipped []string
	if errs := packageErrors(pkgs); len(errs) > 0 {
		if !prog.partial {
			return nil, &LoadError{Dir: prog.Dir, Errors: errs}
		}
		// One package that does not type-check (a mocks package without
		// go.sum entries) must not hide the findings of the others. A root
		// whose own files type-check is analysed even when a dependency has
		// errors (an old pinned golang.org/x/tools that this Go rejects):
		// go/types recovers, and the dependency's errors are warnings.
		var good []*packages.Package
		for _, p := range pkgs {
			if len(p.Errors) > 0 {
				skipped = append(skipped, p.ID)
				broken = append(broken, p.Errors...)
				errored = append(errored, p)
				continue
			}
			p.IllTyped = false
			good = append(good, p)
		}
		if len(good) == 0 {
			return nil, &LoadError{Dir: prog.Dir, Errors: errs}
		}
		// the dependencies' errors the analysed roots carry (those only
		// broken roots import are already told by the roots' errors)
		seen := map[string]bool{}
		packages.Visit(good, nil, func(p *packages.Package) {
			p.IllTyped = false // the fact analyzers run over dependencies too
			for _, e := range p.Errors {
				if k := e.Error(); !seen[k] {
					seen[k] = true
					depErrs = append(depErrs, e)
				}
			}
		})
		pkgs = good
	}
	all := 0
	packages.Visit(pkgs, nil, func(*packages.Package) { all++ })
	progress(fmt.Sprintf("loaded %d packages (%d with their dependencies) in %.1fs; analysing ...", len(pkgs), all, time.Since(start).Seconds()))
	start = time.Now()
	analyzers := []*analysis.Analyzer{prog.analyzer}
	var res dualwrite.Resolver
	if prog.analyzer == nil {
		analyzers, res = newAnalyzers(prog.cfg, prog.tests, pkgs)
	}
	prog.Packages, prog.Broken, prog.Skipped, prog.Errored, prog.DependencyErrors = pkgs, broken, skipped, errored, depErrs
	if err := prog.analyze(analyzers); err != nil {
		return nil, err
	}
	if asked != nil {
		prog.keepAsked(asked)
	}
	progress(fmt.Sprintf("analysed %d packages in %.1fs", len(pkgs), time.Since(start).Seconds()))
	prog.setFingerprints()
	if u, ok := res.(interface{ Unresolved() []string }); ok {
		prog.Unresolved = u.Unresolved()
	}
	return prog, nil
}

// ConfigError reports a .outboxify.yaml that cannot be read or parsed.
type ConfigError struct {
	Err error
}

func (e *ConfigError) Error() string { return "bad configuration: " + e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// loadConfig reads .outboxify.yaml at the module root above dir; nil (no
// error) when dir is not in a module, which the go command reports itself.
func loadConfig(dir string) (*config.Config, error) {
	if _, err := config.ModuleRoot(dir); err != nil {
		return nil, nil
	}
	cfg, err := config.Load(dir)
	if err != nil {
		return nil, &ConfigError{Err: err}
	}
	return cfg, nil
}

// packageErrors lists the errors of every loaded package (roots and
// dependencies), each once, in import order.
func packageErrors(pkgs []*packages.Package) []packages.Error {
	var errs []packages.Error
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if k := e.Error(); !seen[k] {
				seen[k] = true
				errs = append(errs, e)
			}
		}
	})
	return errs
}

// analyze runs the analyzers over the program's packages and collects the
// findings (and consumers) of the roots.
func (p *Program) analyze(analyzers []*analysis.Analyzer) error {
	graph, err := checker.Analyze(analyzers, p.Packages, nil)
	if err != nil {
		return fmt.Errorf("scan: %w", err)
	}
	var findings []dualwrite.Finding
	seen := map[string]bool{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			if p.partial {
				// a partial scan lists the package as not analysed and goes on
				p.Skipped = append(p.Skipped, act.Package.ID)
				p.Broken = append(p.Broken, packages.Error{Pos: act.Package.ID, Msg: fmt.Sprintf("%s: %v", act.Analyzer.Name, act.Err), Kind: packages.UnknownError})
				continue
			}
			return fmt.Errorf("scan: %s on %s: %w", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		switch res := act.Result.(type) {
		case *dualwrite.Result:
			if res != nil {
				findings = append(findings, res.Findings...)
			}
		case *consumer.Result:
			if res == nil {
				continue
			}
			findings = append(findings, res.Findings...)
			for _, c := range res.Consumers {
				if k := c.Call.Position.String(); !seen[k] { // test variants repeat files
					seen[k] = true
					p.Consumers = append(p.Consumers, c)
				}
			}
		}
	}
	sort.SliceStable(p.Consumers, func(i, j int) bool {
		return positionLess(p.Consumers[i].Call.Position, p.Consumers[j].Call.Position)
	})
	p.Findings = sortFindings(dedupe(findings))
	return nil
}

func positionLess(a, b token.Position) bool {
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// dedupe drops findings reported twice: with Options.Tests a package's
// non-test files are analyzed in the package and in its test variant.
func dedupe(fs []dualwrite.Finding) []dualwrite.Finding {
	seen := map[string]bool{}
	out := fs[:0]
	for _, f := range fs {
		k := f.Rule + "\x00" + f.Publish.Position.String()
		if f.Write != nil {
			k += "\x00" + f.Write.Position.String()
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
}

func sortFindings(fs []dualwrite.Finding) []dualwrite.Finding {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i].Publish.Position, fs[j].Publish.Position
		if a != b {
			return positionLess(a, b)
		}
		return fs[i].Rule < fs[j].Rule
	})
	return fs
}

// Rel returns filename relative to the program's directory, slash
// separated; files outside it (a scanned dependency) stay absolute.
func (p *Program) Rel(filename string) string { return RelPath(p.Dir, filename) }

// RelPath is Program.Rel for a given base directory.
func RelPath(base, filename string) string {
	if filename == "" {
		return ""
	}
	rel, err := filepath.Rel(base, filename)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(filename)
	}
	return filepath.ToSlash(rel)
}

// loadWidened loads patterns as Options ask (the whole module when
// WholeModule) and returns the packages, the patterns loaded and, when the
// load was widened, the package paths asked for.
func loadWidened(pcfg *packages.Config, patterns []string, cfg *config.Config, opts Options, progress func(string)) ([]*packages.Package, []string, map[string]bool, error) {
	var asked map[string]bool // package paths asked for, when the load is widened
	if opts.WholeModule {
		wide, paths, err := widen(pcfg, patterns)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("scan: %w", err)
		}
		if wide != nil {
			patterns, asked = wide, paths
		}
	}
	progress("loading and type-checking " + strings.Join(patterns, " ") + " ...")
	pkgs, err := loadPackages(pcfg, patterns, cfg, opts.AllBodies)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("scan: loading %s: %w", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, nil, nil, fmt.Errorf("scan: no packages match %s in %s", strings.Join(patterns, " "), pcfg.Dir)
	}
	return pkgs, patterns, asked, nil
}

// brokenRoots counts the loaded packages that do not type-check, of those
// asked for when the load was widened.
func brokenRoots(pkgs []*packages.Package, asked map[string]bool) int {
	n := 0
	for _, p := range pkgs {
		if len(p.Errors) > 0 && (asked == nil || asked[p.PkgPath]) {
			n++
		}
	}
	return n
}

// workspaceFile is the go.work file the go command uses in dir, "" when
// none (or GOWORK=off).
func workspaceFile(dir string, env []string) string {
	cmd := exec.Command("go", "env", "GOWORK")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	ws := strings.TrimSpace(string(out))
	if ws == "off" {
		return ""
	}
	return ws
}
