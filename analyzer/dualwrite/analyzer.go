package dualwrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"

	"github.com/outboxify/outboxify/analyzer/catalog"
	"github.com/outboxify/outboxify/analyzer/config"
)

// URL documents the rules.
const URL = "https://pkg.go.dev/github.com/outboxify/outboxify/analyzer/dualwrite"

// Analyzer is the analyzer go vet (cmd/outboxify-vet) and golangci-lint run:
// per-package facts, no interface resolution. Flags: -config, -publishers,
// -writers, -exclude, -tests.
var Analyzer = NewAnalyzer(Options{})

// NewAnalyzer returns a dual-write analyzer configured by opts.
//
// Without a Resolver it requires a facts analyzer that runs over every
// dependency and exports a FuncFact per writing/publishing function. With a
// Resolver (the CLI, which loaded the whole program) it needs no facts: the
// resolver summarises callees on demand, follows interface calls to their
// implementations, and the analyzer runs on the root packages only.
func NewAnalyzer(opts Options) *analysis.Analyzer {
	o := &options{Options: opts}
	a := &analysis.Analyzer{
		Name:       "outboxify",
		Doc:        doc,
		URL:        URL,
		Run:        func(pass *analysis.Pass) (any, error) { return run(pass, o) },
		ResultType: reflect.TypeFor[*Result](),
	}
	if opts.Resolver == nil {
		a.Requires = []*analysis.Analyzer{newFactsAnalyzer(o)}
	}
	o.flags(&a.Flags)
	return a
}

const doc = `report dual writes: a DB write and a broker publish that are not atomic

The analyzer finds functions that write to a store of record (SQL, DynamoDB,
MongoDB, Cassandra, Firestore) and publish to a broker (Kafka, NATS, AMQP,
SNS/SQS, EventBridge, Kinesis, Pub/Sub, Redis, watermill, asynq) without one
transaction between them, directly or through the functions they call:
OBX001 publish after an autocommitted write, OBX002 after Commit, OBX003
inside the transaction before Commit, OBX004 before the write, OBX005 in a
goroutine, defer or retry loop, OBX006 outbox row on another handle than
the write. //outboxify:ignore [RULE] reason suppresses a finding (OBX900
reports unused or reasonless suppressions).`

func run(pass *analysis.Pass, o *options) (any, error) {
	res := &Result{}
	cat, cfg, err := o.catalogFor(pass)
	if err != nil {
		return nil, err
	}
	var effectsOf func(*types.Func) (*Effects, bool)
	var runsOf func(*types.Func) *Runs
	var stmts func(*types.Var) (string, bool)
	var dispatch map[*types.TypeName]*Effect
	var broadcast func(*types.Named, *types.Var, *types.Var) bool
	var fieldFuncs, paramFuncs func(*types.Var) *Effects
	var paramResolved func(*types.Func, int) bool
	var instMethod func(*types.Func, types.Type, *types.Signature) *types.Func
	var busEffects func(int, string) (*Effects, *Effects)
	var chanPublishes, chanCarries func(*types.Var) *Effect
	var sendsOnParam func(*types.Func, int) sendsOn
	var routeWrite func(string) *Effect
	if o.Resolver != nil {
		effectsOf = o.Resolver.Effects
		if rr, ok := o.Resolver.(interface{ Runs(*types.Func) *Runs }); ok {
			runsOf = rr.Runs
		}
		if rs, ok := o.Resolver.(interface {
			StmtSQL(*types.Var) (string, bool)
		}); ok {
			stmts = rs.StmtSQL
		}
		if pr, ok := o.Resolver.(interface {
			dispatchFor(*types.Package) map[*types.TypeName]*Effect
		}); ok {
			dispatch = pr.dispatchFor(pass.Pkg)
		}
		if mb, ok := o.Resolver.(interface {
			MemoryBroadcast(*types.Named, *types.Var, *types.Var) bool
		}); ok {
			broadcast = mb.MemoryBroadcast
		}
		if ff, ok := o.Resolver.(interface{ FieldEffects(*types.Var) *Effects }); ok {
			fieldFuncs = ff.FieldEffects
		}
		if pf, ok := o.Resolver.(interface {
			ParamEffects(*types.Var) *Effects
			ParamResolved(*types.Func, int) bool
		}); ok {
			paramFuncs, paramResolved = pf.ParamEffects, pf.ParamResolved
		}
		if cp, ok := o.Resolver.(interface{ ChanPublishes(*types.Var) *Effect }); ok {
			chanPublishes = cp.ChanPublishes
		}
		if cp, ok := o.Resolver.(interface {
			ChanCarries(*types.Var) *Effect
			SendsOnParam(*types.Func, int) sendsOn
		}); ok {
			chanCarries, sendsOnParam = cp.ChanCarries, cp.SendsOnParam
		}
		if im, ok := o.Resolver.(interface {
			InstMethod(*types.Func, types.Type, *types.Signature) *types.Func
		}); ok {
			instMethod = im.InstMethod
		}
		if be, ok := o.Resolver.(interface {
			BusEffects(int, string) (*Effects, *Effects)
		}); ok {
			busEffects = be.BusEffects
		}
		if rw, ok := o.Resolver.(interface{ RouteWrite(string) *Effect }); ok {
			routeWrite = rw.RouteWrite
		}
	} else {
		facts := pass.ResultOf[pass.Analyzer.Requires[0]].(*factsResult)
		if !facts.relevant || cat.IsClient(pass.Pkg.Path()) {
			return res, nil
		}
		effectsOf = facts.effectsOf
		runsOf = facts.runsOf
		stmts = facts.stmtSQL
		dispatch = facts.dispatch
	}
	r := &reporter{pass: pass, cat: cat, cfg: cfg, tests: o.Tests || cfg.Tests}
	r.c = newCollector(pass.TypesInfo, pass.Fset, cat, pass.Pkg, effectsOf)
	r.c.runsOf = runsOf
	r.c.stmts = stmts
	r.c.dispatch = dispatch
	r.c.memoryBroadcast = broadcast
	r.c.fieldFuncs = fieldFuncs
	r.c.paramFuncs = paramFuncs
	r.c.paramResolved = paramResolved
	r.c.instMethod = instMethod
	r.c.busEffects = busEffects
	r.c.chanPublishes = chanPublishes
	r.c.chanCarries = chanCarries
	r.c.sendsOnParam = sendsOnParam
	r.c.routeWrite = routeWrite
	for _, f := range pass.Files {
		name := pass.Fset.File(f.Pos()).Name()
		if !r.tests && strings.HasSuffix(name, "_test.go") || cfg.Excluded(name) {
			continue
		}
		r.file(f)
	}
	sort.SliceStable(r.findings, func(i, j int) bool { return r.findings[i].Publish.Pos < r.findings[j].Publish.Pos })
	res.Findings = r.findings
	for _, fd := range res.Findings {
		d := analysis.Diagnostic{Pos: fd.Publish.Pos, Category: fd.Rule, Message: fd.Rule + " " + fd.Message, URL: URL + "#hdr-" + fd.Rule}
		if fd.Write != nil {
			d.Related = []analysis.RelatedInformation{{Pos: fd.Write.Pos, Message: "DB write " + catalog.Short(fd.Write.Name)}}
		}
		pass.Report(d)
	}
	return res, nil
}

// reporter finds the dual writes of one package.
type reporter struct {
	pass     *analysis.Pass
	cat      *catalog.Catalog
	cfg      *config.Config
	tests    bool
	c        *collector
	fn       *types.Func // the function declaration being checked
	findings []Finding
	sup      *suppressions
}

func (r *reporter) file(f *ast.File) {
	r.sup = parseSuppressions(r.pass.Fset, f)
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		fn, _ := r.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil || !r.tests && isTestCode(fn) || isEntryWiring(fn) {
			continue
		}
		r.fn = fn
		r.c.self = fn.Origin().FullName()
		queue := []funcUnit{{sig: fn.Signature(), body: fd.Body}}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			r.c.unit(u.sig, u.body)
			for _, lit := range r.c.lits {
				sig, _ := r.pass.TypesInfo.TypeOf(lit).(*types.Signature)
				queue = append(queue, funcUnit{sig: sig, body: lit.Body})
			}
			if !r.c.relay {
				r.check(u.body, fd)
			}
		}
	}
	r.findings = r.sup.apply(r.pass, r.findings, f)
}

type funcUnit struct {
	sig  *types.Signature
	body *ast.BlockStmt
}

// check pairs the events of the unit just collected.
func (r *reporter) check(body *ast.BlockStmt, decl *ast.FuncDecl) {
	evs := r.c.events
	hasWrite, hasOther := false, false
	for i := range evs {
		switch evs[i].kind {
		case evWrite:
			hasWrite = true
		case evPublish, evOutbox:
			hasOther = true
		}
	}
	if !hasWrite || !hasOther {
		return
	}
	g := newOrder(body, evs)
	for i := range evs {
		p := &evs[i]
		if !g.live(i) || p.errPath && p.kind != evPublish {
			continue
		}
		switch p.kind {
		case evPublish:
			r.checkPublish(g, i, decl)
		case evOutbox:
			r.checkOutbox(g, i, decl)
		}
	}
}

func (r *reporter) checkPublish(g *order, pi int, decl *ast.FuncDecl) {
	evs := r.c.events
	p := &evs[pi]
	// writes before and after the publish, nearest first
	before, after := -1, -1
	coveredBefore := false
	for i := range evs {
		w := &evs[i]
		if w.kind != evWrite || !g.live(i) {
			continue
		}
		// one call of an interface whose implementations split into a
		// writer and a publisher, on each element of a slice of them (a
		// composite listener): the iterations run both
		fanned := w.pos == p.pos && w.recv != nil && w.recv == p.recv && otherImpl(w.eff, p.eff) && r.fanOut(decl, w.recv)
		if w.pos == p.pos && !fanned {
			continue
		}
		if w.errPath && !p.errPath || w.async == asyncDefer && p.async != asyncDefer || !fanned && alternatives(w, p) || offPath(w, p) {
			// a write only on an error branch, or a deferred compensation,
			// is not what a success path's publish announces
			continue
		}
		if r.c.covered(w) {
			if g.before(i, pi) || g.before(pi, i) {
				coveredBefore = true
			}
			continue
		}
		if fanned {
			if before < 0 {
				before = i // the writers and publishers run in the slice's order: read as write, then publish
			}
			continue
		}
		if w.iter != nil && w.iter == p.iter && !g.forwardBefore(i, pi) && !g.forwardBefore(pi, i) {
			// exclusive branches of a loop's body (one member of a
			// conversation is written, another is sent to): one
			// iteration runs either, only different iterations both
			continue
		}
		if g.before(i, pi) {
			if p.selfc && r.announced(i) && !r.flows(decl, w.pos, p.pos) {
				// two self-contained calls in a row (upload one file,
				// then the next): each publishes its own write, and the
				// first's write is not what the second announces, unless
				// the second is given what the first returned (the
				// artifact id it created)
				continue
			}
			if (p.selfc || p.worker && w.worker) && !g.forwardBefore(i, pi) {
				// only through a loop's back edge: another iteration's
				// write (a later statement, or another switch case), and
				// the publish announces its callee's own write, or both
				// are in a worker's endless loop, where each message (a
				// select case) is handled on a path of its own
				continue
			}
			if before < 0 || evs[before].order < w.order {
				before = i
			}
		} else if g.before(pi, i) && (!p.owned || r.sameAggregate(p, w)) && !(p.worker && w.worker && !g.forwardBefore(pi, i)) &&
			!(p.selfc && r.announced(i) && !r.flows(decl, p.pos, w.pos)) {
			// (a later self-contained call, which writes and publishes its
			// own, is no partner of a call that queued first and recorded)
			if after < 0 || w.order < evs[after].order {
				after = i
			}
		}
	}
	if coveredBefore && before < 0 && after < 0 {
		return
	}
	if p.async != syncCall {
		w := before
		if w < 0 {
			w = after
		}
		if w < 0 && (p.async == asyncGo || p.async == asyncDefer) {
			w = r.anyWrite(g, pi)
		}
		if w >= 0 && (p.async != asyncRetry || !within(&evs[w], p.asyncNode)) {
			r.report(RuleAsync, decl, p, &evs[w])
			return
		}
	}
	if p.loop != nil && before >= 0 && !within(&evs[before], p.loop) && isRetryLoop(p.loop) {
		r.report(RuleAsync, decl, p, &evs[before])
		return
	}
	switch {
	case before >= 0:
		w := &evs[before]
		r.report(r.afterRule(g, before, pi), decl, p, w)
	case after >= 0:
		r.report(RuleBeforeWrite, decl, p, &evs[after])
	}
}

// otherImpl reports whether a write and a publish of one interface call
// come from different implementations (their chains leave the interface
// method for different methods).
func otherImpl(w, p *Effect) bool {
	if w.Alt != "" && w.Alt == p.Alt {
		return true
	}
	return len(w.Via) > 1 && len(p.Via) > 1 && w.Via[0] == p.Via[0] && w.Via[1] != p.Via[1]
}

// fanOut reports whether v is the value variable of a range over a slice,
// array or map of interface values in decl: a call on it runs a different
// value on each iteration.
func (r *reporter) fanOut(decl *ast.FuncDecl, v types.Object) bool {
	if decl == nil || decl.Body == nil || v == nil || !types.IsInterface(v.Type()) {
		return false
	}
	found := false
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		rs, ok := n.(*ast.RangeStmt)
		if !ok || found {
			return !found
		}
		id, ok := rs.Value.(*ast.Ident)
		if !ok || r.pass.TypesInfo.ObjectOf(id) != v {
			return true
		}
		switch t := r.pass.TypesInfo.TypeOf(rs.X).Underlying().(type) {
		case *types.Slice, *types.Array, *types.Map:
			found = true
		case *types.Pointer:
			_, found = t.Elem().Underlying().(*types.Array)
		}
		return false
	})
	return found
}

// announced: write event wi comes from a call that also publishes (a
// callee that writes and announces its own write).
func (r *reporter) announced(wi int) bool {
	w := &r.c.events[wi]
	for i := range r.c.events {
		if e := &r.c.events[i]; e.kind == evPublish && e.selfc && e.pos == w.pos {
			return true
		}
	}
	return false
}

// flows reports whether the call at to is given a variable that the call
// at from assigned (id, err := create(...); ...; announce(ctx, id)).
func (r *reporter) flows(decl *ast.FuncDecl, from, to token.Pos) bool {
	if decl == nil || decl.Body == nil {
		return false
	}
	info := r.pass.TypesInfo
	results := map[types.Object]bool{}
	var target *ast.CallExpr
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if call, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && call.Pos() == from {
					for _, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							if obj := info.ObjectOf(id); obj != nil && !types.Identical(obj.Type(), errorType) {
								results[obj] = true
							}
						}
					}
				}
			}
		case *ast.CallExpr:
			if n.Pos() == to && target == nil {
				target = n
			}
		}
		return true
	})
	if target == nil || len(results) == 0 {
		return false
	}
	mentions := func(e ast.Node) bool {
		hit := false
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && results[info.Uses[id]] {
				hit = true
			}
			return !hit
		})
		return hit
	}
	// values built from the results (sources = append(sources, Ref{ID: id}))
	for round := 0; round < 3; round++ {
		grew := false
		ast.Inspect(decl.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				tainted := false
				for _, rhs := range as.Rhs {
					tainted = tainted || mentions(rhs)
				}
				if !tainted {
					return true
				}
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if obj := info.ObjectOf(id); obj != nil && !results[obj] && !types.Identical(obj.Type(), errorType) {
							results[obj], grew = true, true
						}
					}
				}
			}
			return true
		})
		if !grew {
			break
		}
	}
	found := false
	for _, a := range target.Args {
		ast.Inspect(a, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && results[info.Uses[id]] {
				found = true
			}
			return !found
		})
	}
	return found
}

// anyWrite returns a live, uncovered write that is not part of the call
// that publishes event pi and runs on its path (not in another goroutine).
// Not one on a branch that returns before the publish is reached (nor the
// other way round): no run takes both.
func (r *reporter) anyWrite(g *order, pi int) int {
	p := &r.c.events[pi]
	for i := range r.c.events {
		if w := &r.c.events[i]; w.kind == evWrite && w.pos != p.pos && g.live(i) && !r.c.covered(w) && !offPath(w, p) &&
			(g.before(i, pi) || g.before(pi, i)) {
			return i
		}
	}
	return -1
}

// offPath: write w is not on publish p's path whatever the order: it is
// made in a goroutine p does not run in, or p sits in an error handler
// that w is outside of (such a publish pairs only with a write the
// handler makes: a retry count, a failed status).
func offPath(w, p *event) bool {
	return otherGoroutine(w, p) || p.errPath && !within(w, p.errNode)
}

// otherGoroutine: the write runs in a goroutine the function starts (go,
// or a helper that runs its closure in one) and the publish does not run
// in that same goroutine. Sibling goroutines of a fan-out, or a worker
// started before a publish, are not one path: each is checked on its own.
func otherGoroutine(w, p *event) bool {
	return w.async == asyncGo && (p.async != asyncGo || p.asyncNode != w.asyncNode)
}

func within(ev *event, n ast.Node) bool {
	return n != nil && n.Pos() <= ev.pos && ev.pos < n.End()
}

// afterRule classifies a publish that follows write wi.
func (r *reporter) afterRule(g *order, wi, pi int) string {
	evs := r.c.events
	w, p := &evs[wi], &evs[pi]
	switch {
	case w.eff.Committed && w.handle == nil:
		return RuleAfterCommit
	case !w.inTx:
		return RuleAfterWrite
	case p.scope != nil && p.scope == w.scope:
		return RuleInTx
	}
	for i := range evs {
		if cm := &evs[i]; cm.kind == evCommit && commitsTx(cm, w) && g.before(wi, i) && g.before(i, pi) {
			return RuleAfterCommit
		}
	}
	return RuleInTx
}

func (r *reporter) checkOutbox(g *order, oi int, decl *ast.FuncDecl) {
	evs := r.c.events
	o := &evs[oi]
	if unknownHandle(o) {
		return
	}
	if o.eff.Covered || o.selfc {
		// a callee that writes and inserts its outbox row (in one
		// transaction, or not: its own body says): the row is that
		// write's, not another call's (a worker's first poll and its
		// next tick)
		return
	}
	near := -1
	for i := range evs {
		w := &evs[i]
		if w.kind != evWrite || w.pos == o.pos || !g.live(i) || !(g.before(i, oi) || g.before(oi, i)) {
			continue
		}
		if w.errPath != o.errPath || alternatives(w, o) || offPath(w, o) {
			continue // not on the row's path
		}
		if sameTx(w, o) || w.eff.Covered {
			return
		}
		if near < 0 || absDiff(w.pos, o.pos) < absDiff(evs[near].pos, o.pos) {
			near = i
		}
	}
	if near >= 0 {
		r.report(RuleOutboxOther, decl, o, &evs[near])
	}
}

func absDiff[T ~int](a, b T) T {
	if a < b {
		return b - a
	}
	return a - b
}

func (r *reporter) report(rule string, decl *ast.FuncDecl, p, w *event) {
	fset := r.pass.Fset
	pub := Call{Pos: p.pos, Position: fset.Position(p.pos), Name: p.eff.Name, Via: p.eff.Via, ViaInterface: p.eff.ViaInterface}
	wr := &Call{Pos: w.pos, Position: fset.Position(w.pos), Name: w.eff.Name, Via: w.eff.Via, ViaInterface: w.eff.ViaInterface}
	f := Finding{Rule: rule, Func: r.fn.FullName(), Publish: pub, Write: wr, Store: w.eff.Store}
	f.Message, f.Advice = message(rule, p, w, wr.Position)
	f.Summary = summary(rule, p, w, wr.Position)
	f.Message += "; " + f.Advice
	if r.sup.suppressed(fset, &f, decl) {
		return
	}
	r.findings = append(r.findings, f)
}

// order answers "can a run reach event b after event a" on the function's CFG.
// The CFG comes from go/cfg directly rather than the ctrlflow analyzer:
// ctrlflow builds a graph for every function of every package (and exports
// facts, so it would run over all dependencies); here only the functions
// holding both a write and a publish need one.
type order struct {
	g     *cfg.CFG
	block []int32 // event index -> block index, -1 dead
	ord   []int   // event index -> execution order inside its block
	reach map[int32][]bool
	avoid map[int32][]bool // loop head -> blocks reachable from the entry without it
	// A closure the function runs during a call (g.Try(ctx, func(){...}),
	// a lock's LockFunc, a transaction callback) is one node of the
	// function's CFG: two events inside it are ordered on its own CFG, so
	// an if/else in it is two paths, not one.
	body  *ast.BlockStmt
	evs   []event
	lits  []*ast.FuncLit // every closure in body, found when first needed
	found bool
	sub   map[*ast.FuncLit]*order
}

func newOrder(body *ast.BlockStmt, evs []event) *order {
	g := cfg.New(body, mayReturn)
	type span struct {
		pos, end int
		block    int32
	}
	var spans []span
	for _, b := range g.Blocks {
		if !b.Live {
			continue
		}
		for _, n := range b.Nodes {
			spans = append(spans, span{int(n.Pos()), int(n.End()), b.Index})
		}
	}
	o := &order{g: g, block: make([]int32, len(evs)), ord: make([]int, len(evs)), reach: map[int32][]bool{}, body: body, evs: evs}
	for i := range evs {
		o.block[i] = -1
		o.ord[i] = int(evs[i].order)
		best := -1
		for j, s := range spans {
			if s.pos <= int(evs[i].pos) && int(evs[i].pos) < s.end && (best < 0 || s.end-s.pos < spans[best].end-spans[best].pos) {
				best = j
			}
		}
		if best >= 0 {
			o.block[i] = spans[best].block
		}
	}
	return o
}

func (o *order) live(i int) bool { return o.block[i] >= 0 }

// before reports whether event a can run before event b.
func (o *order) before(a, b int) bool {
	ba, bb := o.block[a], o.block[b]
	if ba < 0 || bb < 0 {
		return false
	}
	if ba == bb {
		if s := o.inClosure(a, b); s != nil {
			return s.before(a, b)
		}
		if o.ord[a] < o.ord[b] {
			return true
		}
	}
	return o.reaches(ba, bb)
}

// inClosure returns the order of the outermost closure in the body that
// holds both events, nil when none does.
func (o *order) inClosure(a, b int) *order {
	if !o.found {
		o.found = true
		ast.Inspect(o.body, func(n ast.Node) bool {
			if lit, ok := n.(*ast.FuncLit); ok {
				o.lits = append(o.lits, lit)
			}
			return true
		})
	}
	pa, pb := o.evs[a].pos, o.evs[b].pos
	var best *ast.FuncLit
	for _, lit := range o.lits {
		if lit.Body.Pos() <= pa && pa < lit.Body.End() && lit.Body.Pos() <= pb && pb < lit.Body.End() &&
			(best == nil || lit.Pos() < best.Pos()) {
			best = lit
		}
	}
	if best == nil {
		return nil
	}
	if o.sub == nil {
		o.sub = map[*ast.FuncLit]*order{}
	}
	s, ok := o.sub[best]
	if !ok {
		s = newOrder(best.Body, o.evs)
		o.sub[best] = s
	}
	return s
}

// forwardBefore reports whether event a can run before event b in the
// same iteration of every loop around them: without taking a back edge.
func (o *order) forwardBefore(a, b int) bool {
	ba, bb := o.block[a], o.block[b]
	if ba < 0 || bb < 0 {
		return false
	}
	if ba == bb {
		if s := o.inClosure(a, b); s != nil {
			return s.forwardBefore(a, b)
		}
		return o.ord[a] < o.ord[b]
	}
	seen := make([]bool, len(o.g.Blocks))
	stack := []*cfg.Block{o.g.Blocks[ba]}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, v := range u.Succs {
			if seen[v.Index] || o.backEdge(u, v) {
				continue
			}
			if v.Index == bb {
				return true
			}
			seen[v.Index] = true
			stack = append(stack, v)
		}
	}
	return false
}

// backEdge: u -> v closes a loop (v is a loop head that dominates u).
func (o *order) backEdge(u, v *cfg.Block) bool {
	switch v.Kind {
	case cfg.KindForLoop, cfg.KindRangeLoop, cfg.KindForBody:
	default:
		return false
	}
	if o.avoid == nil {
		o.avoid = map[int32][]bool{}
	}
	r, ok := o.avoid[v.Index]
	if !ok { // the blocks reachable from the entry without passing v
		r = make([]bool, len(o.g.Blocks))
		entry := o.g.Blocks[0]
		if entry != v {
			r[entry.Index] = true
			stack := []*cfg.Block{entry}
			for len(stack) > 0 {
				b := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, s := range b.Succs {
					if s != v && !r[s.Index] {
						r[s.Index] = true
						stack = append(stack, s)
					}
				}
			}
		}
		o.avoid[v.Index] = r
	}
	return !r[u.Index] // every path to u passes v: v dominates u
}

func (o *order) reaches(from, to int32) bool {
	r, ok := o.reach[from]
	if !ok {
		r = make([]bool, len(o.g.Blocks))
		stack := []*cfg.Block{}
		stack = append(stack, o.g.Blocks[from].Succs...)
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if r[b.Index] {
				continue
			}
			r[b.Index] = true
			stack = append(stack, b.Succs...)
		}
		o.reach[from] = r
	}
	return r[to]
}

// mayReturn: calls that end the process or the goroutine end the path.
func mayReturn(call *ast.CallExpr) bool {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		return fun.Name != "panic"
	case *ast.SelectorExpr:
		switch fun.Sel.Name {
		case "Exit", "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln", "FailNow", "Skip", "Skipf", "SkipNow":
			return false
		}
	}
	return true
}

// isRetryLoop tells a loop that retries (sleeps or backs off, or counts
// attempts, or runs until a break) from one that walks a collection.
func isRetryLoop(n ast.Node) bool {
	loop, ok := n.(*ast.ForStmt)
	if !ok {
		return false
	}
	if loop.Cond == nil {
		return true
	}
	retry := false
	ast.Inspect(loop, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			// whole words: "retrieved" and "entries" are not retries
			if catalog.HasWord(x.Name, retryWords) || x.Name == "Sleep" {
				retry = true
			}
		}
		return !retry
	})
	return retry
}

// isTestCode reports whether a function outside _test.go files runs only
// under go test: it takes a *testing.T (B, F, TB), or it is a method of a
// test suite (its T() returns a *testing.T, as testify's suite.Suite
// gives every struct embedding it), as shared persistence test suites are.
func isTestCode(fn *types.Func) bool {
	sig := fn.Signature()
	for i := 0; i < sig.Params().Len(); i++ {
		if isTestingType(sig.Params().At(i).Type()) {
			return true
		}
	}
	recv := sig.Recv()
	if recv == nil {
		return false
	}
	// a suite: T() *testing.T, promoted from testify's suite.Suite however deep
	obj, _, _ := types.LookupFieldOrMethod(recv.Type(), true, nil, "T")
	if m, ok := obj.(*types.Func); ok {
		res := m.Signature().Results()
		return m.Signature().Params().Len() == 0 && res.Len() == 1 && isTestingType(res.At(0).Type())
	}
	return false
}

func isTestingType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing"
}

// alternatives: a write and a publish that are backends of broker-like
// interfaces (Effect.Alt: one implementation writes a table, another
// publishes). On the same value a deployment runs one of them; through two
// different such interfaces (a message queue and a pub/sub, each with a
// Postgres-table twin) a deployment configures both backends alike, so the
// write is the queue's own table, not a business write. Two values of the
// same interface (a dual-write visibility manager: a database one and a
// Kafka one) are partners.
func alternatives(w, p *event) bool {
	if w.eff.Alt != "" && p.eff.Alt == "" {
		// the write is a queue's table twin, the publish a plain broker:
		// two sends, no business write
		return true
	}
	if w.eff.Alt == "" || p.eff.Alt == "" {
		return false
	}
	if w.eff.Alt != p.eff.Alt {
		return true
	}
	return w.recv != nil && w.recv == p.recv
}

// isEntryWiring: main.main and init functions wire the program at start-up;
// what they call is checked where it runs.
func isEntryWiring(fn *types.Func) bool {
	if fn.Signature().Recv() != nil {
		return false
	}
	return fn.Name() == "init" || fn.Name() == "main" && fn.Pkg() != nil && fn.Pkg().Name() == "main"
}

// retryWords mark a loop that retries (its counters, helpers and waits).
var retryWords = map[string]bool{
	"retry": true, "retries": true, "retrying": true, "retried": true,
	"attempt": true, "attempts": true, "tries": true, "backoff": true,
}

// sameAggregate: a method of an aggregate calls one of its own methods that
// records and announces a change (w.saveWalletLog(l): insert the log,
// raise the event), then persists itself (w.Save()): the event announced
// a state that the later write may fail to store, so the later write is
// the partner although the first call announced its own. A write through
// a field (s.db.ExecContext after s.CreateAccount) is the service's next
// step, not the aggregate storing what was announced.
func (r *reporter) sameAggregate(p, w *event) bool {
	return r.c.recv != nil && p.recv == r.c.recv && w.recv == r.c.recv
}
