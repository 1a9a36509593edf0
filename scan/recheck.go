package scan

import (
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/scanner"
	"go/types"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
)

// ErrNoRecheck says a change cannot be type-checked in memory against the
// loaded program (a file added where the import graph must be listed again,
// a cgo package, a build tag); the caller loads the program again instead.
var ErrNoRecheck = errors.New("cannot type-check the change in memory")

func noRecheck(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrNoRecheck, fmt.Sprintf(format, args...))
}

// Recheck is the program as it would be with overlay (file name -> new
// contents, as packages.Config.Overlay) laid over the files on disk,
// without loading it again: the edited and added files are parsed, and the
// packages that hold them, every package that imports those, and packages
// added by the overlay (a generated writer) are type-checked in memory
// against the types already loaded. Nothing else is parsed or listed.
//
// checked are the new program's root packages and the type-checked
// packages that are not roots, with their errors. When none of them has
// an error, prog is that program analysed as Load would analyse it (what
// fix reports on the module it leaves); otherwise prog is nil.
//
// An error wrapping ErrNoRecheck means the change needs a real load
// (scan.Load with Options.Overlay).
func (prev *Program) Recheck(overlay map[string][]byte) (prog *Program, checked []*packages.Package, err error) {
	start := time.Now()
	if prev.tests || prev.widened || len(prev.Errored) > 0 {
		return nil, nil, noRecheck("test variants, a widened load or packages with errors")
	}
	r := &rechecker{prev: prev, overlay: overlay,
		all: map[string]*packages.Package{}, byFile: map[string]*packages.Package{},
		byDir: map[string]*packages.Package{}, importers: map[string][]string{},
		roots: map[string]bool{}, mainDirs: map[string]*packages.Module{},
		files: map[string]map[string][]byte{}, added: map[string]string{},
		dirty: map[string]bool{}, done: map[string]*packages.Package{},
		std: map[string]*packages.Package{}, busy: map[string]bool{}}
	if err := r.buildContext(); err != nil {
		return nil, nil, err
	}
	r.index()
	if err := r.place(); err != nil {
		return nil, nil, err
	}
	r.spread()
	var paths []string
	for p := range r.dirty {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if _, err := r.check(p); err != nil {
			return nil, nil, err
		}
	}
	if r.fatal != nil {
		return nil, nil, r.fatal
	}
	roots, err := r.newRoots()
	if err != nil {
		return nil, nil, err
	}
	checked = append(checked, roots...)
	inRoots := map[string]bool{}
	for _, p := range roots {
		inRoots[p.PkgPath] = true
	}
	for _, p := range paths {
		if !inRoots[p] {
			checked = append(checked, r.done[p])
		}
	}
	if len(packageErrors(checked)) > 0 { // checked holds the roots
		return nil, checked, nil
	}
	next := &Program{Dir: prev.Dir, Fset: prev.Fset, OutsideBroken: prev.OutsideBroken, partial: prev.partial,
		cfg: prev.cfg, tests: prev.tests, patterns: prev.patterns, analyzer: prev.analyzer, env: prev.env}
	prog, err = next.finish(roots, nil, start, func(string) {})
	if err != nil {
		return nil, checked, err
	}
	return prog, checked, nil
}

type rechecker struct {
	prev    *Program
	overlay map[string][]byte
	ctx     build.Context

	all       map[string]*packages.Package // loaded packages by path
	byFile    map[string]*packages.Package // by compiled file name
	byDir     map[string]*packages.Package // by directory (non-test packages)
	importers map[string][]string          // path -> paths that import it
	roots     map[string]bool
	mainDirs  map[string]*packages.Module // main module directory -> module

	files map[string]map[string][]byte // package path -> edited or added file -> contents
	added map[string]string            // path of a package the overlay adds -> its directory

	dirty map[string]bool              // packages to type-check again
	done  map[string]*packages.Package // type-checked again (or added)
	std   map[string]*packages.Package // standard library packages the program had not loaded
	busy  map[string]bool
	fatal error
}

// buildContext is the go command's view of build constraints for the
// loaded program's environment; custom build tags are not read from
// GOFLAGS, so a load with them is not rechecked.
func (r *rechecker) buildContext() error {
	r.ctx = build.Default
	for _, kv := range r.prev.env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GOOS":
			r.ctx.GOOS = v
		case "GOARCH":
			r.ctx.GOARCH = v
		case "CGO_ENABLED":
			r.ctx.CgoEnabled = v == "1"
		case "GOFLAGS":
			if strings.Contains(v, "-tags") {
				return noRecheck("GOFLAGS sets build tags")
			}
		}
	}
	r.ctx.OpenFile = func(path string) (io.ReadCloser, error) {
		if b, ok := r.overlay[path]; ok {
			return io.NopCloser(strings.NewReader(string(b))), nil
		}
		return os.Open(path)
	}
	return nil
}

func (r *rechecker) index() {
	packages.Visit(r.prev.Packages, nil, func(p *packages.Package) {
		r.all[p.PkgPath] = p
		for _, f := range p.CompiledGoFiles {
			r.byFile[f] = p
		}
		if len(p.GoFiles) > 0 {
			r.byDir[filepath.Dir(p.GoFiles[0])] = p
		}
		for _, imp := range p.Imports {
			r.importers[imp.PkgPath] = append(r.importers[imp.PkgPath], p.PkgPath)
		}
		if p.Module != nil && p.Module.Main && p.Module.Dir != "" {
			r.mainDirs[p.Module.Dir] = p.Module
		}
	})
	for _, p := range r.prev.Packages {
		r.roots[p.PkgPath] = true
	}
}

// place assigns each Go file of the overlay to the loaded package that has
// it or its directory, or to a package the overlay adds.
func (r *rechecker) place() error {
	names := make([]string, 0, len(r.overlay))
	for name := range r.overlay {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src := r.overlay[name]
		if !strings.HasSuffix(name, ".go") {
			continue
		}
		if src == nil {
			return noRecheck("%s is removed", name)
		}
		if p := r.byFile[name]; p != nil {
			if !slices.Equal(p.GoFiles, p.CompiledGoFiles) {
				return noRecheck("%s uses cgo", p.PkgPath)
			}
			r.edit(p.PkgPath, name, src)
			continue
		}
		if strings.HasSuffix(name, "_test.go") {
			continue // test files are not loaded
		}
		dir := filepath.Dir(name)
		mod, other := r.moduleOf(dir)
		if other {
			continue // another module (the relay's): not this program
		}
		if mod == nil {
			return noRecheck("%s is outside the loaded modules", name)
		}
		ok, err := r.ctx.MatchFile(dir, filepath.Base(name))
		if err != nil {
			return noRecheck("%s: %v", name, err)
		}
		if !ok {
			continue // excluded by its build constraints, as go list would
		}
		if p := r.byDir[dir]; p != nil {
			if !slices.Equal(p.GoFiles, p.CompiledGoFiles) {
				return noRecheck("%s uses cgo", p.PkgPath)
			}
			r.edit(p.PkgPath, name, src)
			continue
		}
		rel, err := filepath.Rel(mod.Dir, dir)
		if err != nil {
			return noRecheck("%s: %v", name, err)
		}
		path := mod.Path
		if rel != "." {
			path += "/" + filepath.ToSlash(rel)
		}
		if r.all[path] != nil {
			return noRecheck("%s is loaded from another directory", path)
		}
		r.added[path] = dir
		r.edit(path, name, src)
	}
	return nil
}

func (r *rechecker) edit(path, name string, src []byte) {
	if r.files[path] == nil {
		r.files[path] = map[string][]byte{}
	}
	r.files[path][name] = src
	r.dirty[path] = true
}

// moduleOf is the main module whose tree holds dir; other is true when a
// go.mod between them (on disk or in the overlay) makes dir another module.
func (r *rechecker) moduleOf(dir string) (mod *packages.Module, other bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if m := r.mainDirs[d]; m != nil {
			return m, false
		}
		gomod := filepath.Join(d, "go.mod")
		if _, ok := r.overlay[gomod]; ok {
			return nil, true
		}
		if _, err := os.Stat(gomod); err == nil {
			return nil, true
		}
		if filepath.Dir(d) == d {
			return nil, false
		}
	}
}

// spread marks every package that imports a changed one, directly or not:
// its types refer to the changed package's objects, so it is checked again.
func (r *rechecker) spread() {
	var queue []string
	for p := range r.dirty {
		queue = append(queue, p)
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, imp := range r.importers[p] {
			if !r.dirty[imp] {
				r.dirty[imp] = true
				queue = append(queue, imp)
			}
		}
	}
}

// check type-checks a dirty package (after the dirty packages it imports).
func (r *rechecker) check(path string) (*packages.Package, error) {
	if p := r.done[path]; p != nil {
		return p, nil
	}
	if r.busy[path] {
		return nil, noRecheck("import cycle through %s", path)
	}
	r.busy[path] = true
	defer delete(r.busy, path)

	old := r.all[path]
	type file struct {
		name string
		syn  *ast.File
	}
	var files []file
	var errs []packages.Error
	seen := map[string]bool{}
	if old != nil {
		if len(old.Syntax) != len(old.CompiledGoFiles) {
			return nil, noRecheck("%s has files without syntax", path)
		}
		for i, name := range old.CompiledGoFiles {
			seen[name] = true
			if src, ok := r.files[path][name]; ok {
				f, perrs := r.parse(name, src)
				errs = append(errs, perrs...)
				if f != nil {
					files = append(files, file{name, f})
				}
				continue
			}
			files = append(files, file{name, old.Syntax[i]})
		}
	}
	var names []string
	for name := range r.files[path] {
		if !seen[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		f, perrs := r.parse(name, r.files[path][name])
		errs = append(errs, perrs...)
		if f != nil {
			files = append(files, file{name, f})
		}
	}
	sort.SliceStable(files, func(i, j int) bool { return files[i].name < files[j].name })

	np := &packages.Package{ID: path, PkgPath: path}
	if old != nil {
		*np = *old
	}
	np.GoFiles, np.CompiledGoFiles, np.Syntax = nil, nil, nil
	for _, f := range files {
		np.GoFiles = append(np.GoFiles, f.name)
		np.CompiledGoFiles = append(np.CompiledGoFiles, f.name)
		np.Syntax = append(np.Syntax, f.syn)
	}
	if len(files) == 0 {
		return nil, noRecheck("%s has no files", path)
	}
	if old == nil {
		np.Name = files[0].syn.Name.Name
		np.Module, _ = r.moduleOf(r.added[path])
	}
	for _, f := range files {
		if f.syn.Name.Name != np.Name {
			return nil, noRecheck("%s has packages %s and %s", path, np.Name, f.syn.Name.Name)
		}
	}
	dir := filepath.Dir(files[0].name)
	np.Imports = map[string]*packages.Package{}
	var typeErrs []types.Error
	tc := &types.Config{
		Importer: importerFunc(func(ipath string) (*types.Package, error) {
			if ipath == "unsafe" {
				if u := r.all["unsafe"]; u != nil {
					np.Imports["unsafe"] = u
				}
				return types.Unsafe, nil
			}
			ip, err := r.resolve(old, dir, ipath)
			if err != nil {
				if r.fatal == nil {
					r.fatal = err
				}
				return nil, err
			}
			np.Imports[ipath] = ip
			return ip.Types, nil
		}),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				typeErrs = append(typeErrs, te)
			}
		},
		Sizes: r.sizes(),
	}
	if np.Module != nil && np.Module.GoVersion != "" {
		tc.GoVersion = "go" + np.Module.GoVersion
	}
	np.Types = types.NewPackage(path, np.Name)
	np.TypesInfo = newTypesInfo()
	np.TypesSizes = tc.Sizes
	np.Fset = r.prev.Fset
	_ = types.NewChecker(tc, r.prev.Fset, np.Types, np.TypesInfo).Files(np.Syntax)
	if r.fatal != nil {
		return nil, r.fatal
	}
	// A dependency outside the roots' modules has its bodies dropped (see
	// loadPackages): the imports only they used are not errors.
	lenient := !r.roots[path] && (np.Module == nil || !np.Module.Main)
	np.TypeErrors = nil
	for _, te := range typeErrs {
		if lenient && unusedImport(te.Msg) {
			continue
		}
		np.TypeErrors = append(np.TypeErrors, te)
		errs = append(errs, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
	}
	np.Errors = errs
	np.IllTyped = len(errs) > 0
	for _, ip := range np.Imports {
		np.IllTyped = np.IllTyped || ip.IllTyped
	}
	r.done[path] = np
	return np, nil
}

func (r *rechecker) parse(name string, src []byte) (*ast.File, []packages.Error) {
	f, err := parser.ParseFile(r.prev.Fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
	var errs []packages.Error
	var list scanner.ErrorList
	if errors.As(err, &list) {
		for _, e := range list {
			errs = append(errs, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
		}
	} else if err != nil {
		errs = append(errs, packages.Error{Pos: name, Msg: err.Error(), Kind: packages.ParseError})
	}
	return f, errs
}

// resolve finds the package an import path names from a package (old: its
// loaded version, nil for an added package): the dirty packages' new
// versions first, then the loaded ones, then the standard library.
func (r *rechecker) resolve(old *packages.Package, dir, ipath string) (*packages.Package, error) {
	path := ipath
	if old != nil {
		if ip := old.Imports[ipath]; ip != nil {
			path = ip.PkgPath // vendored paths
		}
	}
	if r.dirty[path] {
		return r.check(path)
	}
	if p := r.all[path]; p != nil {
		return p, nil
	}
	if first, _, _ := strings.Cut(path, "/"); !strings.Contains(first, ".") {
		return r.stdPackage(path, dir)
	}
	return nil, noRecheck("%s imports %s, which the program did not load", dir, ipath)
}

// stdPackage type-checks a standard-library package the program had not
// loaded (the generated writer may import log/slog where nothing else
// does), from GOROOT, declarations only.
func (r *rechecker) stdPackage(ipath, srcDir string) (*packages.Package, error) {
	ctx := r.ctx
	ctx.CgoEnabled = false // the pure-Go files: no cgo processing here
	ctx.OpenFile = nil
	bp, err := ctx.Import(ipath, srcDir, 0)
	if err != nil || !bp.Goroot {
		return nil, noRecheck("%s is not among the loaded packages or the standard library", ipath)
	}
	if p := r.all[bp.ImportPath]; p != nil {
		return p, nil
	}
	if p := r.std[bp.ImportPath]; p != nil {
		return p, nil
	}
	if r.busy[bp.ImportPath] {
		return nil, noRecheck("import cycle through %s", bp.ImportPath)
	}
	r.busy[bp.ImportPath] = true
	defer delete(r.busy, bp.ImportPath)
	np := &packages.Package{ID: bp.ImportPath, PkgPath: bp.ImportPath, Name: bp.Name, Fset: r.prev.Fset, Imports: map[string]*packages.Package{}}
	for _, name := range bp.GoFiles {
		full := filepath.Join(bp.Dir, name)
		f, err := parser.ParseFile(r.prev.Fset, full, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, noRecheck("parse %s: %v", full, err)
		}
		stripBodies(f)
		np.GoFiles = append(np.GoFiles, full)
		np.CompiledGoFiles = append(np.CompiledGoFiles, full)
		np.Syntax = append(np.Syntax, f)
	}
	var failed error
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			ip, err := r.stdPackage(path, bp.Dir)
			if err != nil {
				failed = err
				return nil, err
			}
			np.Imports[path] = ip
			return ip.Types, nil
		}),
		Error: func(error) {}, // bodies are gone: unused imports and the like
		Sizes: r.sizes(),
	}
	np.Types = types.NewPackage(bp.ImportPath, bp.Name)
	np.TypesInfo = newTypesInfo()
	np.TypesSizes = tc.Sizes
	_ = types.NewChecker(tc, r.prev.Fset, np.Types, np.TypesInfo).Files(np.Syntax)
	if failed != nil {
		return nil, failed
	}
	r.std[bp.ImportPath] = np
	return np, nil
}

func (r *rechecker) sizes() types.Sizes {
	for _, p := range r.prev.Packages {
		if p.TypesSizes != nil {
			return p.TypesSizes
		}
	}
	return types.SizesFor("gc", r.ctx.GOARCH)
}

// newRoots are the previous roots with the checked versions in their place,
// and the added packages the patterns match.
func (r *rechecker) newRoots() ([]*packages.Package, error) {
	var roots []*packages.Package
	for _, p := range r.prev.Packages {
		if np := r.done[p.PkgPath]; np != nil {
			p = np
		}
		roots = append(roots, p)
	}
	var added []string
	for path := range r.added {
		added = append(added, path)
	}
	sort.Strings(added)
	for _, path := range added {
		ok, err := matchPatterns(r.prev.patterns, r.prev.Dir, r.added[path], path)
		if err != nil {
			return nil, err
		}
		if ok {
			roots = append(roots, r.done[path])
		}
	}
	return listOrder(roots), nil
}

// listOrder puts roots in the order go list -deps prints them (and
// go/packages returns them): the roots by import path, each after the
// packages it imports, depth first.
func listOrder(roots []*packages.Package) []*packages.Package {
	isRoot := map[*packages.Package]bool{}
	for _, p := range roots {
		isRoot[p] = true
	}
	sorted := append([]*packages.Package(nil), roots...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].PkgPath < sorted[j].PkgPath })
	var out []*packages.Package
	seen := map[*packages.Package]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		keys := make([]string, 0, len(p.Imports))
		for k := range p.Imports {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			visit(p.Imports[k])
		}
		if isRoot[p] {
			out = append(out, p)
		}
	}
	for _, p := range sorted {
		visit(p)
	}
	return out
}

// matchPatterns reports whether the go command would list the package in
// dir with this import path for the patterns: relative directory patterns
// and import path patterns, with "..." wildcards.
func matchPatterns(patterns []string, base, dir, path string) (bool, error) {
	for _, pat := range patterns {
		switch {
		case pat == "all" || pat == "std" || pat == "cmd" || strings.Contains(pat, "="):
			return false, noRecheck("pattern %q", pat)
		case pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../") || filepath.IsAbs(pat):
			p := pat
			if !filepath.IsAbs(p) {
				p = filepath.Join(base, pat)
			}
			root, wild := strings.CutSuffix(filepath.ToSlash(p), "/...")
			if strings.Contains(root, "...") {
				return false, noRecheck("pattern %q", pat)
			}
			root = filepath.FromSlash(root)
			if !wild {
				if filepath.Clean(root) == dir {
					return true, nil
				}
				continue
			}
			rel, err := filepath.Rel(root, dir)
			if err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) && !hiddenFromWildcard(rel) {
				return true, nil
			}
		case strings.Contains(pat, "..."):
			re := regexp.QuoteMeta(pat)
			re = strings.ReplaceAll(re, `/\.\.\.`, `(/.*)?`)
			re = strings.ReplaceAll(re, `\.\.\.`, `.*`)
			if ok, _ := regexp.MatchString("^"+re+"$", path); ok && !hiddenFromWildcard(path) {
				return true, nil
			}
		case pat == path:
			return true, nil
		}
	}
	return false, nil
}

// hiddenFromWildcard: "..." does not reach testdata, vendor, or
// directories whose names begin with "." or "_".
func hiddenFromWildcard(rel string) bool {
	for _, e := range strings.Split(filepath.ToSlash(rel), "/") {
		if e == "testdata" || e == "vendor" || (e != "." && e != ".." && (strings.HasPrefix(e, ".") || strings.HasPrefix(e, "_"))) {
			return true
		}
	}
	return false
}

func newTypesInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
