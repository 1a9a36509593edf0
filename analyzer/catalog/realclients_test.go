package catalog_test

import (
	"go/types"
	"sort"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// TestRowsMatchRealClients checks the rows against the real client
// libraries that are in this module's build list: every row's full name
// must be the FullName of a method or function the library declares (so
// the analyzer matches real code, not only the fixture stubs). Libraries not
// in the build list are skipped and named in the log.
func TestRowsMatchRealClients(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the client libraries")
	}
	byPkg := map[string][]catalog.Entry{}
	for _, e := range catalog.Default().Entries() {
		p := catalog.PackageOf(e.Name)
		byPkg[p] = append(byPkg[p], e)
	}
	var paths []string
	for p := range byPkg {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes}
	checked := 0
	for _, path := range paths {
		pkgs, err := packages.Load(cfg, path)
		if err != nil || len(pkgs) != 1 || pkgs[0].Types == nil || len(pkgs[0].Errors) > 0 {
			t.Logf("skip %s: not in the build list", path)
			continue
		}
		declared := fullNames(pkgs[0].Types)
		for _, e := range byPkg[path] {
			if !declared[e.Name] {
				t.Errorf("row %s: %s declares no such function or method", e.Name, path)
			}
		}
		checked++
	}
	t.Logf("checked rows of %d real client packages", checked)
	if checked == 0 {
		t.Skip("no client library in the build list")
	}
}

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
				out[n.Method(i).FullName()] = true
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
