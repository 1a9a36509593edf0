package catalog_test

import (
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// TestRowsMatchRealClients checks every row against the real client
// library: its full name must be the FullName of a method or function the
// library declares (so the analyzer matches real code, not only the
// fixture stubs). A library outboxify's own module does not build with is
// loaded from testdata/realclients, a module that requires those; a library
// found in neither fails the test, named.
func TestRowsMatchRealClients(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the client libraries")
	}
	byPkg := map[string][]catalog.Entry{}
	for _, e := range catalog.Default().Entries() {
		p := catalog.PackageOf(e.Name)
		byPkg[p] = append(byPkg[p], e)
	}
	for _, name := range catalog.APINames() {
		p := catalog.PackageOf(name)
		byPkg[p] = append(byPkg[p], catalog.Entry{Name: name})
	}
	var paths []string
	for p := range byPkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	own := &packages.Config{Mode: packages.NeedName | packages.NeedTypes}
	clients, err := filepath.Abs(filepath.Join("testdata", "realclients"))
	if err != nil {
		t.Fatal(err)
	}
	// the test module's own go.mod and go.sum, whatever the caller's flags
	extra := &packages.Config{Mode: own.Mode, Dir: clients, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")}
	var missing []string
	// one load per build list, not per package: each go list call reads the
	// whole module graph, and the real clients are many. The test module
	// first: it requires every client but those this module itself uses, and
	// a pattern outside a build list spoils the go.sum lookups of the others.
	got := loadAll(t, extra, paths)
	fromExtra := len(got)
	var rest []string
	for _, path := range paths {
		if got[path] == nil {
			rest = append(rest, path)
		}
	}
	if len(rest) > 0 {
		for path, pkg := range loadAll(t, own, rest) {
			got[path] = pkg
		}
	}
	for _, path := range paths {
		pkg := got[path]
		if pkg == nil {
			missing = append(missing, path)
			continue
		}
		declared := fullNames(pkg.Types)
		for _, e := range byPkg[path] {
			if !declared[e.Name] {
				t.Errorf("row %s: %s declares no such function or method", e.Name, path)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("%d client package(s) with catalog rows are in neither build list, their rows are not checked: %s; add each to testdata/realclients/clients.go and run go mod tidy there",
			len(missing), strings.Join(missing, ", "))
	}
	t.Logf("checked the rows of %d real client packages (%d from testdata/realclients)", len(paths)-len(missing), fromExtra)
}

// loadAll type-checks the packages at paths in one load and returns those
// in cfg's build list that type-check, by import path.
func loadAll(t *testing.T, cfg *packages.Config, paths []string) map[string]*packages.Package {
	out := map[string]*packages.Package{}
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		t.Logf("loading %d packages in %s: %v", len(paths), cfg.Dir, err)
		return out
	}
	for _, p := range pkgs {
		if p.Types != nil && len(p.Errors) == 0 {
			out[p.PkgPath] = p
		}
	}
	return out
}

var noTypeParams = regexp.MustCompile(`\[[^\]]*\]\)`)

// fullNames lists the FullName of every function and method a package declares.
func fullNames(pkg *types.Package) map[string]bool {
	out := map[string]bool{}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			out[obj.FullName()] = true
		case *types.TypeName:
			n, ok := obj.Type().(*types.Named)
			if !ok {
				continue
			}
			for i := 0; i < n.NumMethods(); i++ {
				// a generic type's methods: the row names the receiver
				// without its type parameters, as Catalog.Match keys it
				out[noTypeParams.ReplaceAllString(n.Method(i).FullName(), ")")] = true
			}
			if it, ok := n.Underlying().(*types.Interface); ok {
				for i := 0; i < it.NumExplicitMethods(); i++ {
					m := it.ExplicitMethod(i)
					out[m.FullName()] = true
				}
			}
		}
	}
	return out
}
