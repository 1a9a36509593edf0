package dualwrite_test

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/catalog"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// TestCatalogCoverage checks that every catalog row is called in a
// positive fixture function (pos*, which must hold a finding) and in a
// negative one (neg*, which analysistest already checks is silent).
func TestCatalogCoverage(t *testing.T) {
	results := analysistest.Run(t, testdata, dualwrite.Analyzer, "rows/...")
	cat := catalog.Default()
	pos, neg := map[string]bool{}, map[string]bool{}
	for _, r := range results {
		pkg := r.Action.Package
		res, _ := r.Action.Result.(*dualwrite.Result)
		if res == nil {
			continue
		}
		withFinding := map[string]bool{}
		for _, f := range res.Findings {
			withFinding[f.Func] = true
		}
		for _, file := range pkg.Syntax {
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				fn := pkg.TypesInfo.Defs[fd.Name].(*types.Func)
				var into map[string]bool
				switch {
				case strings.HasPrefix(fd.Name.Name, "pos"):
					if !withFinding[fn.FullName()] {
						t.Errorf("%s: positive case without a finding", fn.FullName())
					}
					into = pos
				case strings.HasPrefix(fd.Name.Name, "neg"):
					into = neg
				default:
					continue
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						if callee, ok := typeutil.Callee(pkg.TypesInfo, call).(*types.Func); ok {
							if e := cat.Match(callee); e != nil {
								into[e.Name] = true
							}
						}
					}
					return true
				})
			}
		}
	}
	for _, e := range cat.Entries() {
		needPos := e.Kind != catalog.CacheWrite && e.Kind != catalog.Consume && e.Kind != catalog.Dequeue // never paired by the dual-write rules
		if needPos && !pos[e.Name] {
			t.Errorf("catalog row %s has no positive fixture", e.Name)
		}
		if !neg[e.Name] && !(e.Kind == catalog.Consume && pos[e.Name]) {
			t.Errorf("catalog row %s has no negative fixture", e.Name)
		}
	}
}
