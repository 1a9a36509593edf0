package dualwrite

import (
	"go/ast"
	"go/types"
	"maps"
	"reflect"
	"slices"

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
		FactTypes:  []analysis.Fact{new(FuncFact), new(relevantFact), new(RunsFact)},
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
	bodies   map[*types.Func]*ast.FuncDecl
	runs     map[*types.Func]*Runs
	stmts    map[*types.Var]string // statement fields of this package and their SQL
}

func (r *factsResult) stmtSQL(v *types.Var) (string, bool) {
	if r.stmts == nil {
		r.stmts = stmtFields(r.pass.TypesInfo, r.pass.Files)
	}
	sql, ok := r.stmts[v]
	return sql, ok
}

// runsOf says how fn runs the closures it is given: from this package's
// bodies, or from the RunsFact of an imported function.
func (r *factsResult) runsOf(fn *types.Func) *Runs {
	fn = fn.Origin()
	if ru, ok := r.runs[fn]; ok {
		return ru
	}
	r.runs[fn] = nil // recursion guard
	var ru *Runs
	if fn.Pkg() == r.pass.Pkg {
		if d := r.bodies[fn]; d != nil {
			ru = runsOfBody(r.pass.TypesInfo, r.cat, fn.Pkg(), fn.Signature(), d.Body, r.runsOf)
		}
	} else {
		var f RunsFact
		if fn.Pkg() != nil && r.pass.ImportObjectFact(fn, &f) {
			ru = f.runs(fn.Signature().Variadic())
		}
	}
	r.runs[fn] = ru
	return ru
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
	res := &factsResult{cat: cat, pass: pass, relPkgs: map[*types.Package]bool{}, local: map[*types.Func]*Effects{}, dispatch: map[*types.TypeName]*Effect{}, imported: map[*types.Func]*Effects{},
		bodies: map[*types.Func]*ast.FuncDecl{}, runs: map[*types.Func]*Runs{}}
	// How functions run the closures they are given matters in every
	// package, relevant or not (a route helper that wraps a handler reaches
	// no client): export it for the functions that take a func.
	var withFuncs []*types.Func
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && hasFuncParam(fn.Signature(), fn.Pkg()) {
					res.bodies[fn] = fd
					withFuncs = append(withFuncs, fn)
				}
			}
		}
	}
	for _, fn := range withFuncs {
		if ru := res.runsOf(fn); ru != nil {
			pass.ExportObjectFact(fn, ru.fact())
		}
	}
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
		fn      *types.Func
		decl    *ast.FuncDecl
		dynamic bool // calls a function value: reads what dispatchers registered
		queued  bool
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
	// The fixed point is a worklist: a function is walked again only when
	// a summary its last walk read has changed (or, for one that calls
	// function values, when a dispatcher gained a handler), so a large
	// package whose functions mostly have no effects is walked about once.
	cur := 0
	readers := map[*types.Func]map[int]bool{} // local function -> decls whose walk read its summary
	c := newCollector(pass.TypesInfo, pass.Fset, cat, pass.Pkg, func(fn *types.Func) (*Effects, bool) {
		if o := fn.Origin(); o.Pkg() == pass.Pkg {
			if readers[o] == nil {
				readers[o] = map[int]bool{}
			}
			readers[o][cur] = true
		}
		return res.effectsOf(fn)
	})
	c.runsOf = res.runsOf
	c.stmts = res.stmtSQL
	c.dispatch = res.dispatch
	queue := make([]int, len(decls))
	for i := range decls {
		queue[i], decls[i].queued = i, true
	}
	enqueue := func(i int) {
		if !decls[i].queued {
			decls[i].queued = true
			queue = append(queue, i)
		}
	}
	for walks, limit := 0, maxRounds*4*len(decls); len(queue) > 0 && walks < limit; walks++ {
		cur, queue = queue[0], queue[1:]
		d := &decls[cur]
		d.queued = false
		c.dispatchChanged = false
		c.self = d.fn.Origin().FullName()
		c.unit(d.fn.Signature(), d.decl.Body)
		d.dynamic = c.dynamic
		if eff := withoutCacheWrite(d.fn, c.summarize()); !eff.equal(res.local[d.fn]) {
			res.local[d.fn] = eff
			// in declaration order: which handler a dispatcher keeps first
			// must not depend on map order
			for _, r := range slices.Sorted(maps.Keys(readers[d.fn.Origin()])) {
				enqueue(r)
			}
		}
		if c.dispatchChanged {
			for i := range decls {
				if decls[i].dynamic {
					enqueue(i)
				}
			}
		}
	}
	if len(queue) > 0 && len(pass.Files) > 0 {
		// say so rather than export summaries that may miss a write
		pass.Reportf(pass.Files[0].Package, "outboxify: the effects of this package's functions did not settle after %d rounds; dual writes through them may be missed", maxRounds*4)
	}
	for _, d := range decls {
		if eff := res.local[d.fn]; !eff.empty() {
			pass.ExportObjectFact(d.fn, &FuncFact{Effects: *eff})
		}
	}
	return res, nil
}
