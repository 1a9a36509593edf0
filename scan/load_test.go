package scan_test

import (
	"go/ast"
	"slices"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/scan"
)

// bodies counts the function declarations with and without a body in p,
// leaving out those that take a func-typed parameter written out (kept so
// the analyzer can read how they run the closures they are given).
func bodies(p *packages.Package) (with, without int) {
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && !scan.TakesFuncLit(fd) {
				if fd.Body != nil && len(fd.Body.List) > 0 {
					with++
				} else {
					without++
				}
			}
		}
	}
	return with, without
}

// funcBodies counts the bodies kept of functions that take a func-typed
// parameter written out.
func funcBodies(p *packages.Package) (kept int) {
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && scan.TakesFuncLit(fd) && fd.Body != nil && len(fd.Body.List) > 0 {
				kept++
			}
		}
	}
	return kept
}

func TestLoadDropsIrrelevantBodies(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"store/store.go": store,
		"svc/svc.go":     svc,
		"repo/repo.go":   "package repo\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\t\"strings\"\n)\n\nfunc Save(ctx context.Context, db *sql.DB, s string) error {\n\t_, err := db.ExecContext(ctx, strings.ToUpper(s))\n\treturn err\n}\n",
	})
	for _, all := range []bool{false, true} {
		prog, err := scan.Load(dir, []string{"./repo", "./svc"}, scan.Options{Analyzer: toyAnalyzer, AllBodies: all})
		if err != nil {
			t.Fatal(err)
		}
		byPath := map[string]*packages.Package{}
		packages.Visit(prog.Packages, nil, func(p *packages.Package) { byPath[p.PkgPath] = p })
		if w, _ := bodies(byPath["example.com/toy/repo"]); w == 0 {
			t.Errorf("AllBodies=%v: root package lost its bodies", all)
		}
		if w, _ := bodies(byPath["example.com/toy/store"]); w != 0 {
			// store's bodies are empty in the fixture: nothing to check there.
			t.Fatalf("fixture changed: store has %d non-empty bodies", w)
		}
		// strings reaches no DB or broker client: its bodies go unless AllBodies.
		w, wo := bodies(byPath["strings"])
		if all && w == 0 || !all && w != 0 || wo == 0 && !all {
			t.Errorf("AllBodies=%v: strings has %d bodies, %d without", all, w, wo)
		}
		// strings.Map(mapping func(rune) rune, ...) keeps its body either way.
		if k := funcBodies(byPath["strings"]); k == 0 {
			t.Errorf("AllBodies=%v: strings lost the bodies of functions taking a func", all)
		}
		// Findings do not depend on it.
		if len(prog.Findings) != 1 || prog.Findings[0].Func != "Place" {
			t.Errorf("AllBodies=%v: findings %+v", all, prog.Findings)
		}
	}
}

// TestExampleSameWithAllBodies: dropping bodies of irrelevant dependencies
// changes no finding of the real analyzer on the example module.
func TestExampleSameWithAllBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example twice")
	}
	keys := func(all bool) []string {
		prog, err := scan.Load(exampleDir, nil, scan.Options{AllBodies: all})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range prog.Findings {
			out = append(out, f.Publish.Position.String()+" "+f.Rule+" "+f.Message)
		}
		return out
	}
	pruned, full := keys(false), keys(true)
	if len(full) == 0 || !slices.Equal(pruned, full) {
		t.Errorf("findings differ:\npruned %q\nfull   %q", pruned, full)
	}
}
