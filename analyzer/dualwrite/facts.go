package dualwrite

import (
	"go/ast"
	"go/types"
	"reflect"

	"golang.org/x/tools/go/analysis"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// newFactsAnalyzer returns the analyzer that exports a FuncFact for every
// function and method that (transitively) writes, publishes or inserts an
// outbox row. It runs over every dependency, so it stays cheap: no SSA, no
// inspector, one AST walk per function per fixed-point round, and packages
// that import no DB or broker client (directly or through another relevant
// package) are skipped after a look at their import list.
func newFactsAnalyzer(o *options) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "outboxifyfacts",
		Doc:        "exports facts on functions that write to a store, publish to a broker or insert an outbox row",
		Run:        func(pass *analysis.Pass) (any, error) { return runFacts(pass, o) },
		FactTypes:  []analysis.Fact{new(FuncFact), new(relevantFact)},
		ResultType: reflect.TypeFor[*factsResult](),
	}
}

// factsResult gives the reporting analyzer the summaries of this package's
// functions and access to the imported facts.
type factsResult struct {
	relevant bool
	cat      *catalog.Catalog
	local    map[*types.Func]*Effects
	pass     *analysis.Pass
	relPkgs  map[*types.Package]bool
	dispatch map[*types.TypeName]*Effect
	imported map[*types.Func]*Effects // facts of imported functions, read once
}

func (r *factsResult) effectsOf(fn *types.Func) (*Effects, bool) {
	fn = fn.Origin()
	if fn.Pkg() == r.pass.Pkg {
		return r.local[fn], false
	}
	if fn.Pkg() == nil || !r.isRelevant(fn.Pkg()) {
		return nil, false
	}
	if e, ok := r.imported[fn]; ok {
		return e, false
	}
	var e *Effects
	var f FuncFact
	if r.pass.ImportObjectFact(fn, &f) {
		e = &f.Effects
	}
	r.imported[fn] = e
	return e, false
}

func (r *factsResult) isRelevant(p *types.Package) bool {
	rel, ok := r.relPkgs[p]
	if !ok {
		rel = r.cat.IsClient(p.Path()) || r.cat.HasPackage(p.Path()) || r.pass.ImportPackageFact(p, new(relevantFact))
		r.relPkgs[p] = rel
	}
	return rel
}

func runFacts(pass *analysis.Pass, o *options) (any, error) {
	cat, _, err := o.catalogFor(pass)
	if err != nil {
		return nil, err
	}
	res := &factsResult{cat: cat, pass: pass, relPkgs: map[*types.Package]bool{}, local: map[*types.Func]*Effects{}, dispatch: map[*types.TypeName]*Effect{}, imported: map[*types.Func]*Effects{}}
	for _, imp := range pass.Pkg.Imports() {
		if res.isRelevant(imp) {
			res.relevant = true
			break
		}
	}
	if !res.relevant {
		return res, nil
	}
	pass.ExportPackageFact(new(relevantFact))
	if cat.IsClient(pass.Pkg.Path()) {
		return res, nil // the catalog describes this client's API
	}

	type fdecl struct {
		fn   *types.Func
		decl *ast.FuncDecl
		loop bool // calls a function of this package: recompute until the fixed point
	}
	var decls []fdecl
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					decls = append(decls, fdecl{fn: fn, decl: fd})
				}
			}
		}
	}
	c := newCollector(pass.TypesInfo, pass.Fset, cat, pass.Pkg, res.effectsOf)
	c.dispatch = res.dispatch
	for round := 0; round < 12; round++ {
		changed := false
		c.dispatchChanged = false
		for i := range decls {
			d := &decls[i]
			if round > 0 && !d.loop {
				continue
			}
			c.unit(d.fn.Signature(), d.decl.Body)
			d.loop = c.localCall || c.dynamic
			eff := c.summarize()
			if !eff.equal(res.local[d.fn]) {
				res.local[d.fn] = eff
				changed = true
			}
		}
		if !changed && !c.dispatchChanged {
			break
		}
	}
	for _, d := range decls {
		if eff := res.local[d.fn]; !eff.empty() {
			pass.ExportObjectFact(d.fn, &FuncFact{Effects: *eff})
		}
	}
	return res, nil
}
