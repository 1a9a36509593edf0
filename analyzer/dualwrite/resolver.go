package dualwrite

import (
	"go/ast"
	"go/build"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/catalog"
	"github.com/outboxify/outboxify/analyzer/config"
)

// ProgramResolver returns the Resolver the CLI passes in Options: it
// summarises functions of the loaded packages on demand (the same summary
// the facts hold) and maps an interface method to the implementations found
// in the loaded packages. pkgs are the packages given to checker.Analyze,
// loaded with syntax and types for their dependencies too
// (packages.LoadAllSyntax); cfg is the configuration used for the analyzer
// (nil: none). It is safe for concurrent use.
func ProgramResolver(pkgs []*packages.Package, cfg *config.Config) Resolver {
	r := &programResolver{
		cat:          catalog.Default().With(cfg.Rows()),
		decls:        map[*types.Func]declRef{},
		memo:         map[*types.Func]*Effects{},
		busy:         map[*types.Func]bool{},
		impls:        map[*types.Func]*Effects{},
		relevant:     map[*types.Package]bool{},
		dispatch:     map[*types.Package]map[*types.TypeName]*Effect{},
		byTypes:      map[*types.Package]*packages.Package{},
		bodies:       map[*types.Func]declRef{},
		pending:      map[*types.Func]bool{},
		own:          map[*types.Package]bool{},
		unresolved:   map[string]bool{},
		seen:         map[*types.Func]int{},
		runs:         map[*types.Func]*Runs{},
		broadcasts:   map[broadcastKey]bool{},
		instSeen:     map[string]bool{},
		fieldVals:    map[*types.Var][]fieldVal{},
		fieldBusy:    map[*types.Var]bool{},
		instMethods:  map[string]*types.Func{},
		busListeners: map[busKeyOf][]busListener{},
		paramFnBusy:  map[*types.Var]bool{},
		callsMemo:    map[*types.Var]bool{},
		chanRecvs:    map[*types.Var][]chanRecv{},
		chanBusy:     map[*types.Var]bool{},
		chanFlows:    map[*types.Var][]*types.Var{},
		chanBinds:    map[*types.Var][]chanBind{},
		chanSends:    map[*types.Var]bool{},
		sendMemo:     map[*types.Var]sendsOn{},
		paramBusy:    map[*types.Var]bool{},
		paramRoutes:  map[*types.Var][]*routeGroup{},
		globalMW:     map[string]bool{},
		mwGroups:     map[string][]mwAt{},
		mwMemo:       map[string]*Effect{},
	}
	goroot := filepath.Clean(build.Default.GOROOT) + string(filepath.Separator)
	// The team's own packages are all summarised, whether or not they
	// import a client: a service package that reaches its store only
	// through interfaces declared elsewhere imports none.
	own := map[string]bool{}
	rootPkg := map[string]bool{} // roots outside modules (GOPATH fixtures)
	for _, p := range pkgs {
		if p.Module != nil {
			own[p.Module.Path] = true
		}
		rootPkg[p.PkgPath] = true
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil {
			return
		}
		r.byTypes[p.Types] = p
		if len(p.GoFiles) > 0 && strings.HasPrefix(p.GoFiles[0], goroot) {
			r.std = append(r.std, p.Types)
		}
		if p.TypesInfo != nil {
			// every body, relevant or not, for the question of how a
			// function runs the closures it is given (a route helper
			// wrapping a handler lives in a package that reaches no client)
			for _, f := range p.Syntax {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
						if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok && hasFuncParam(fn.Signature(), fn.Pkg()) {
							r.bodies[fn] = declRef{decl: fd, pkg: p}
						}
					}
				}
			}
		}
		rel := false
		for _, imp := range p.Types.Imports() {
			if r.cat.IsClient(imp.Path()) || r.cat.HasPackage(imp.Path()) || r.relevant[imp] {
				rel = true
				break
			}
		}
		if p.Module != nil && own[p.Module.Path] || rootPkg[p.PkgPath] {
			rel = true
			r.own[p.Types] = true
		}
		r.relevant[p.Types] = rel
		if !rel || r.cat.IsClient(p.PkgPath) || p.TypesInfo == nil {
			return
		}
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						r.decls[fn] = declRef{decl: fd, pkg: p}
					}
				}
			}
		}
		r.instances(p.TypesInfo)
		r.indexFieldFuncs(p)
		r.indexCalls(p)
		r.indexChanRecvs(p)
		r.indexRoutes(p)
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			if tn, ok := scope.Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
				if n, ok := tn.Type().(*types.Named); ok && !types.IsInterface(n) {
					r.concrete = append(r.concrete, n)
				}
			}
		}
	})
	return r
}

type declRef struct {
	decl *ast.FuncDecl
	pkg  *packages.Package
}

type programResolver struct {
	mu       sync.Mutex
	cat      *catalog.Catalog
	decls    map[*types.Func]declRef
	memo     map[*types.Func]*Effects
	busy     map[*types.Func]bool
	impls    map[*types.Func]*Effects // interface method -> merged effects of implementations
	relevant map[*types.Package]bool
	concrete []*types.Named // named non-interface types of relevant packages: implementation candidates
	// instantiated generic types the relevant packages write
	// (NewProducer[Event] returning *Producer[Event]): candidates for a
	// plain interface that only an instantiation implements
	instantiated []*types.Named
	instSeen     map[string]bool
	instMethods  map[string]*types.Func    // an instantiated interface's method, one per instantiation (instMethod)
	instMu       sync.Mutex                // instMethods: asked by the analyzer's collectors too, outside mu
	fieldVals    map[*types.Var][]fieldVal // func-typed fields -> the values stored in them (fieldfuncs.go)
	fieldBusy    map[*types.Var]bool
	paramArgs    []paramArg                // func-typed arguments of the program's calls (paramfuncs.go)
	paramVals    map[*types.Var][]fieldVal // a func-typed parameter -> the values passed to it (built on first use)
	paramFnBusy  map[*types.Var]bool
	callsMemo    map[*types.Var]bool        // a func-typed parameter -> its function's body calls it (callsParam)
	busListeners map[busKeyOf][]busListener // an event bus's event key -> its listeners (eventbus.go)
	chanRecvs    map[*types.Var][]chanRecv  // channel fields -> the functions receiving from them (chanpub.go)
	chanBusy     map[*types.Var]bool
	chanFlows    map[*types.Var][]*types.Var // a channel parameter or field -> the fields it is stored in
	chanBinds    map[*types.Var][]chanBind   // a channel -> the calls it is passed to
	chanSends    map[*types.Var]bool         // a channel sent on -> some send is not in a goroutine
	sendMemo     map[*types.Var]sendsOn
	chanRev      map[*types.Var][]*types.Var // a parameter -> the channels callers pass to it (built on first use)
	paramBusy    map[*types.Var]bool
	paramRoutes  map[*types.Var][]*routeGroup // a router parameter -> its routes (middleware.go)
	globalMW     map[string]bool              // middlewares installed on the engine
	mwGroups     map[string][]mwAt            // a middleware -> the groups it is installed on
	allRoutes    []routeRefs
	mwMemo       map[string]*Effect
	std          []*types.Package
	dispatch     map[*types.Package]map[*types.TypeName]*Effect
	byTypes      map[*types.Package]*packages.Package
	bodies       map[*types.Func]declRef // functions taking func parameters, every package with syntax
	runs         map[*types.Func]*Runs
	global       map[*types.TypeName]*Effect // dispatcher -> what its registered handlers publish

	// the fixed point (Effects)
	stack     []*types.Func        // nodes being computed
	pending   map[*types.Func]bool // computed while a cycle was open: provisional
	seen      map[*types.Func]int  // round a node was last computed in
	round     int
	changed   bool
	unsettled int // fixed points given up after maxRounds (reported by tests)

	own        map[*types.Package]bool // packages of the roots' modules
	unresolved map[string]bool         // own interface methods called with no implementation loaded
	stmts      map[*types.Package]map[*types.Var]string

	broadcasts map[broadcastKey]bool      // memoryBroadcast's answers
	calls      map[*types.Func][]callSite // calls of functions taking a func, by callee (callSites)
}

// stmtSQL gives the SQL a statement field was prepared with (stmts.go),
// from the syntax of the package declaring the field.
func (r *programResolver) stmtSQL(v *types.Var) (string, bool) {
	if v.Pkg() == nil {
		return "", false
	}
	m, ok := r.stmts[v.Pkg()]
	if !ok {
		if p := r.byTypes[v.Pkg()]; p != nil && p.TypesInfo != nil {
			m = stmtFields(p.TypesInfo, p.Syntax)
		}
		if r.stmts == nil {
			r.stmts = map[*types.Package]map[*types.Var]string{}
		}
		r.stmts[v.Pkg()] = m
	}
	sql, ok := m[v]
	return sql, ok
}

// StmtSQL is stmtSQL for the reporter (locked like Effects).
func (r *programResolver) StmtSQL(v *types.Var) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stmtSQL(v)
}

// Unresolved lists the methods of the program's own interfaces that were
// called but have no implementation among the loaded packages (built
// elsewhere, or in a package left out): calls through them were not
// followed. Sorted.
func (r *programResolver) Unresolved() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.unresolved))
	for k := range r.unresolved {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// runsOf says how fn runs the closures it is given; nil when its body is
// not loaded. Recursion sees the partial answer (every parameter unknown).
func (r *programResolver) runsOf(fn *types.Func) *Runs {
	fn = fn.Origin()
	if ru, ok := r.runs[fn]; ok {
		return ru
	}
	d, ok := r.bodies[fn]
	if !ok {
		r.runs[fn] = nil
		return nil
	}
	r.runs[fn] = nil // recursion guard
	ru := runsOfBody(d.pkg.TypesInfo, r.cat, fn.Pkg(), fn.Signature(), d.decl.Body, r.runsOf)
	r.runs[fn] = ru
	return ru
}

// Runs implements the reporter's view of runsOf (locked like Effects).
func (r *programResolver) Runs(fn *types.Func) *Runs {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runsOf(fn)
}

// Effects implements Resolver.
//
// Summaries depend on each other through recursion and, constantly in real
// services, through interfaces: a middleware implements the service
// interface it wraps, so summarising one implementation of
// Service.Create asks for Service.Create again. A summary computed while
// such a cycle was open is provisional; Effects recomputes the provisional
// ones until none changes (a fixed point over the cycle), so no partial
// summary is ever kept as final.
func (r *programResolver) Effects(fn *types.Func) (*Effects, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.stack) > 0 {
		return r.effects(fn) // re-entered from a collector: part of the round under way
	}
	var e *Effects
	var iface bool
	r.settle(func() { e, iface = r.effects(fn) })
	return e, iface
}

// settle runs compute until the summaries it computed while a cycle was
// open stop changing (a fixed point), then makes them final. Re-entered
// from a collector, compute is part of the round under way.
func (r *programResolver) settle(compute func()) {
	if len(r.stack) > 0 {
		compute()
		return
	}
	for round := 0; round < maxRounds; round++ {
		r.round++
		r.changed = false
		compute()
		if !r.changed || len(r.pending) == 0 {
			break
		}
		if round == maxRounds-1 {
			r.unsettled++
		}
	}
	for f := range r.pending { // settled (or given up on): final from now on
		delete(r.pending, f)
	}
}

// settled is the analyzer's locked view of a resolver question: compute
// under the lock, settled like Effects (FieldEffects, ChanCarries, ...).
func settled[T any](r *programResolver, compute func() T) T {
	r.mu.Lock()
	defer r.mu.Unlock()
	var v T
	r.settle(func() { v = compute() })
	return v
}

// maxRounds bounds the fixed point; effects only grow (first write, first
// publish), so real programs settle in two or three rounds.
const maxRounds = 16

func (r *programResolver) effects(fn *types.Func) (*Effects, bool) {
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		e := r.ifaceEffects(r.ifaceMethod(fn))
		return e, e != nil
	}
	return r.summary(fn.Origin()), false
}

// ifaceMethod is the interface method whose implementations are looked
// for: fn itself when its receiver is an interface instantiated with
// concrete type arguments (instMethod), the generic origin otherwise
// (Enqueuer[T] with Queue[T]).
func (r *programResolver) ifaceMethod(fn *types.Func) *types.Func {
	if hasTypeParam(fn.Signature().Recv().Type(), 0) {
		return fn.Origin()
	}
	return fn
}

// instMethod is method fn of the interface type recv as a call
// instantiates it (s.stream.Publish on a MessageStream[RawMessage, ...]
// whose embedded MessagePublisher[O] declares Publish): go/types names the
// generic origin's method at such a call, whose implementations cannot be
// asked for. One object per instantiation, so summaries are kept once.
func (r *programResolver) instMethod(fn *types.Func, recv types.Type, sig *types.Signature) *types.Func {
	r.instMu.Lock()
	defer r.instMu.Unlock()
	key := types.TypeString(recv, nil) + "." + fn.Name()
	if m, ok := r.instMethods[key]; ok {
		return m
	}
	rv := types.NewVar(fn.Pos(), fn.Pkg(), "", recv)
	m := types.NewFunc(fn.Pos(), fn.Pkg(), fn.Name(), types.NewSignatureType(rv, nil, nil, sig.Params(), sig.Results(), sig.Variadic()))
	r.instMethods[key] = m
	return m
}

// InstMethod is instMethod for the analyzer (instMu guards it).
func (r *programResolver) InstMethod(fn *types.Func, recv types.Type, sig *types.Signature) *types.Func {
	return r.instMethod(fn, recv, sig)
}

// hasTypeParam reports whether t mentions a type parameter.
func hasTypeParam(t types.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	switch x := types.Unalias(t).(type) {
	case *types.TypeParam:
		return true
	case *types.Pointer:
		return hasTypeParam(x.Elem(), depth+1)
	case *types.Slice:
		return hasTypeParam(x.Elem(), depth+1)
	case *types.Array:
		return hasTypeParam(x.Elem(), depth+1)
	case *types.Chan:
		return hasTypeParam(x.Elem(), depth+1)
	case *types.Map:
		return hasTypeParam(x.Key(), depth+1) || hasTypeParam(x.Elem(), depth+1)
	case *types.Named:
		if x.TypeParams().Len() > 0 && x.TypeArgs().Len() == 0 {
			return true // the generic type itself
		}
		for i := range x.TypeArgs().Len() {
			if hasTypeParam(x.TypeArgs().At(i), depth+1) {
				return true
			}
		}
	case *types.Signature:
		for _, tup := range []*types.Tuple{x.Params(), x.Results()} {
			for i := range tup.Len() {
				if hasTypeParam(tup.At(i).Type(), depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// enter starts a node of the fixed point. It returns the known value and
// false when the node need not be (re)computed now: final, computed in this
// round already, or open on the stack (a cycle: every open node becomes
// provisional).
func (r *programResolver) enter(fn *types.Func, memo map[*types.Func]*Effects) (*Effects, bool) {
	e, known := memo[fn]
	if known && !r.pending[fn] {
		return e, false
	}
	if known && r.seen[fn] == r.round || r.busy[fn] {
		// a provisional value, or a cycle: whoever uses it is provisional too
		for _, f := range r.stack {
			r.pending[f] = true
		}
		return e, false
	}
	r.busy[fn] = true
	r.seen[fn] = r.round
	r.stack = append(r.stack, fn)
	return nil, true
}

// leave ends a node: it records the value and whether it changed.
func (r *programResolver) leave(fn *types.Func, memo map[*types.Func]*Effects, e *Effects) {
	r.stack = r.stack[:len(r.stack)-1]
	delete(r.busy, fn)
	if old, known := memo[fn]; !known || !old.equal(e) {
		r.changed = true
	}
	memo[fn] = e
}

func (r *programResolver) summary(fn *types.Func) *Effects {
	d, ok := r.decls[fn]
	if !ok {
		return nil
	}
	if e, compute := r.enter(fn, r.memo); !compute {
		return e
	}
	c := r.newCollector(d.pkg)
	c.self = fn.FullName()
	c.unit(fn.Signature(), d.decl.Body)
	e := withoutCacheWrite(fn, c.summarize())
	r.leave(fn, r.memo, e)
	return e
}

// withoutCacheWrite drops the write of a cache's Set: Set(key, value,
// ttl) of a type that also has Get(key) is a key-value cache kept in a SQL
// table (a translation cache), not the store of record.
func withoutCacheWrite(fn *types.Func, e *Effects) *Effects {
	if e == nil || e.Write == nil || !cacheSetter(fn) {
		return e
	}
	out := *e
	out.Write = nil
	if out.empty() {
		return nil
	}
	return &out
}

// cacheSetter: a method taking a string key, a value and a time.Duration
// (in that order), of a type with a method taking a string key and
// returning a value and an error: a cache's Set beside its Get.
func cacheSetter(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	params := fn.Signature().Params()
	key, ttl := -1, -1
	for i := 0; i < params.Len(); i++ {
		t := params.At(i).Type()
		if b, ok := t.(*types.Basic); ok && b.Kind() == types.String && key < 0 {
			key = i
		}
		if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration" {
			ttl = i
		}
	}
	if key < 0 || ttl < key+2 {
		return false // key, value, ..., ttl
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	for i := 0; i < n.NumMethods(); i++ {
		m := n.Method(i)
		ps, rs := m.Signature().Params(), m.Signature().Results()
		if m == fn || rs.Len() != 2 || !types.Identical(rs.At(1).Type(), errorType) {
			continue
		}
		for j := 0; j < ps.Len(); j++ {
			if b, ok := ps.At(j).Type().(*types.Basic); ok && b.Kind() == types.String && j == ps.Len()-1 {
				return true // Get(ctx, key) (value, error)
			}
		}
	}
	return false
}

// newCollector is a collector of the program's view for a package's code.
func (r *programResolver) newCollector(p *packages.Package) *collector {
	c := newCollector(p.TypesInfo, p.Fset, r.cat, p.Types, r.effects)
	c.runsOf = r.runsOf
	c.stmts = r.stmtSQL
	c.memoryBroadcast = r.memoryBroadcast
	c.fieldFuncs = r.fieldEffects
	c.paramFuncs = r.paramEffects
	c.paramResolved = r.paramResolved
	c.instMethod = r.instMethod
	c.busEffects = r.busEffects
	c.chanPublishes = r.chanPublishes
	c.chanCarries = r.chanCarries
	c.sendsOnParam = r.sendsOnParam
	c.routeWrite = r.routeWrite
	c.dispatch = r.dispatchOf(p)
	return c
}

// ifaceEffects merges the effects of the implementations of an interface
// method found among the loaded packages' concrete types.
func (r *programResolver) ifaceEffects(m *types.Func) *Effects {
	if e, compute := r.enter(m, r.impls); !compute {
		return e
	}
	res := r.ifaceEffectsOnce(m)
	r.leave(m, r.impls, res)
	return res
}

// impl is a type of the program that implements an interface, and its
// method of the name asked.
type impl struct {
	named *types.Named
	fn    *types.Func
}

// implementations lists the program's types that implement iface, m's
// interface (a generic type instantiated with the interface's type
// arguments: Queue[T] for Enqueuer[T]), with their method m; found counts
// the implementing types.
func (r *programResolver) implementations(m *types.Func, iface *types.Interface) (out []impl, found int) {
	targs := ifaceTypeArgs(m)
	candidates := r.concrete
	if len(targs) == 0 {
		candidates = append(candidates[:len(candidates):len(candidates)], r.instantiated...)
	}
	for _, n := range candidates {
		var t types.Type = n
		if n.TypeParams().Len() > 0 && n.TypeParams().Len() == len(targs) {
			// the shape of generic drivers of generic ports; otherwise
			// the type is asked as it is
			if inst, err := types.Instantiate(nil, n.Origin(), targs, true); err == nil {
				t = inst
			}
		}
		if !types.Implements(t, iface) {
			t = types.NewPointer(t)
			if !types.Implements(t, iface) {
				continue
			}
		}
		found++
		obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
		if fn, ok := obj.(*types.Func); ok {
			out = append(out, impl{named: n, fn: fn})
		}
	}
	return out, found
}

func (r *programResolver) ifaceEffectsOnce(m *types.Func) *Effects {
	if m.Pkg() != nil {
		for _, s := range r.std {
			if s == m.Pkg() { // io.Writer and friends: too wide to resolve usefully
				return nil
			}
		}
	}
	iface, _ := m.Signature().Recv().Type().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	var out Effects
	both := false // one implementation both writes and publishes
	// plainPublisher: an implementation publishes without wrapping the
	// interface (a broker backend, not an event-store middleware that
	// calls the next implementation and then publishes)
	plainPublisher := false
	// fanned: an implementation calls a slice of the interface's values (a
	// composite listener): its writer and publisher run together, they
	// are not alternatives
	fanned := false
	found := 0
	defer func() {
		_, named := m.Signature().Recv().Type().(*types.Named)
		if _, configured := r.cat.Lookup(m.FullName()); found == 0 && r.own[m.Pkg()] && !configured && named && !unitPackage(m.Pkg()) {
			r.unresolved[m.FullName()] = true // a catalog (or .outboxify.yaml) row says what it does
		}
	}()
	impls, count := r.implementations(m, iface)
	found = count
	for _, im := range impls {
		n, impl := im.named, im.fn
		e := r.summary(impl.Origin())
		if e.empty() {
			continue
		}
		// an implementation that wraps the same interface (a middleware)
		// brings back what the others do: not a path of its own
		self := m.FullName()
		if fansOut(n, m.Signature().Recv().Type()) {
			fanned = true
		}
		if e.Publish != nil && !e.reaches(self) && !wrapsInterface(n, m.Signature().Recv().Type()) {
			plainPublisher = true // not a decorator of this interface
		}
		e = &Effects{Relay: e.Relay, Write: acyclic(e.Write, self), Publish: acyclic(e.Publish, self), Outbox: acyclic(e.Outbox, self), Query: acyclic(e.Query, self)}
		if e.Publish != nil && wrapsInterface(n, m.Signature().Recv().Type()) {
			// a decorator that publishes after the value it wraps (an
			// event-store middleware) is checked in its own body, where
			// both meet; it wraps only the values the wiring hands it, so
			// its publish is not what every call of the interface does
			// (an event-sourced store's publishing middleware, used by
			// one module of the program, is not every module's store)
			e.Publish = nil
		}
		name := impl.Origin().FullName()
		if e.Write != nil && e.Publish != nil {
			both = true
		}
		out.Relay = out.Relay || e.Relay
		// a call may run any implementation: one whose write is outside
		// the unit of work, or whose publish is not guarded, wins over one
		// that joins the unit (a rewrite that missed an implementation)
		if e.Write != nil && (out.Write == nil || out.Write.Unit && !e.Write.Unit) {
			out.Write = e.Write.through(name, true, e.Write.Handle)
		}
		if e.Publish != nil && (out.Publish == nil || out.Publish.Guarded && !e.Publish.Guarded) {
			out.Publish = e.Publish.through(name, true, e.Publish.Handle)
		}
		if out.Outbox == nil && e.Outbox != nil {
			out.Outbox = e.Outbox.through(name, true, e.Outbox.Handle)
		}
		if out.Query == nil && e.Query != nil {
			out.Query = e.Query.through(name, true, e.Query.Handle)
		}
	}
	if out.Write != nil && cacheShaped(iface) {
		// a key-value cache with expiry kept in a SQL table: filling or
		// invalidating it is not a write an event announces
		out.Write = nil
	}
	if out.empty() {
		return nil
	}
	if out.Write != nil && out.Publish != nil && !both && plainPublisher && !fanned {
		// one implementation writes, another publishes (a message queue
		// with a database-backed alternative): a call runs one of them,
		// and two calls on the same value run the same one
		w, p := *out.Write, *out.Publish
		w.Alt, p.Alt = m.FullName(), m.FullName()
		out.Write, out.Publish = &w, &p
	}
	return &out
}

// instances records the instantiated generic named types a package's code
// names, directly (Producer[Event]{}) or as a generic function's parameter
// or result (NewProducer[Event] returning *Producer[Event]).
func (r *programResolver) instances(info *types.Info) {
	add := func(t types.Type) {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.TypeArgs().Len() == 0 || types.IsInterface(n) {
			return
		}
		for i := 0; i < n.TypeArgs().Len(); i++ {
			if _, open := n.TypeArgs().At(i).(*types.TypeParam); open {
				return // inside generic code: not a type the program runs
			}
		}
		if k := types.TypeString(n, nil); !r.instSeen[k] {
			r.instSeen[k] = true
			r.instantiated = append(r.instantiated, n)
		}
	}
	for _, inst := range info.Instances {
		switch t := inst.Type.(type) {
		case *types.Named:
			add(t)
		case *types.Signature:
			for i := 0; i < t.Params().Len(); i++ {
				add(t.Params().At(i).Type())
			}
			for i := 0; i < t.Results().Len(); i++ {
				add(t.Results().At(i).Type())
			}
		}
	}
}

// ifaceTypeArgs gives the type parameters of m's generic interface (the
// resolver asks about origin methods), as the arguments to instantiate a
// generic implementation with; nil for a plain interface.
func ifaceTypeArgs(m *types.Func) []types.Type {
	n, _ := types.Unalias(m.Signature().Recv().Type()).(*types.Named)
	if n == nil {
		return nil
	}
	var out []types.Type
	if args := n.TypeArgs(); args.Len() > 0 {
		for i := range args.Len() {
			out = append(out, args.At(i))
		}
		return out
	}
	for i := range n.TypeParams().Len() {
		out = append(out, n.TypeParams().At(i))
	}
	return out
}

// dispatchOf finds, once for the whole program, the dispatcher types whose
// registered closures publish: handlers are usually registered in the
// module's wiring package, not the dispatcher's own (the facts analyzer
// can only see the registrations of one package and its imports).
func (r *programResolver) dispatchOf(*packages.Package) map[*types.TypeName]*Effect {
	if r.global != nil {
		return r.global
	}
	d := map[*types.TypeName]*Effect{}
	r.global = d
	var pkgs []*packages.Package
	for t, p := range r.byTypes {
		if r.relevant[t] && p.TypesInfo != nil && !r.cat.IsClient(p.PkgPath) {
			pkgs = append(pkgs, p)
		}
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].PkgPath < pkgs[j].PkgPath })
	for _, p := range pkgs {
		c := newCollector(p.TypesInfo, p.Fset, r.cat, p.Types, r.effects)
		c.runsOf = r.runsOf
		c.stmts = r.stmtSQL
		c.memoryBroadcast = r.memoryBroadcast
		c.dispatch = d
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				if !ok {
					return true
				}
				fn, ok := p.TypesInfo.Uses[sel.Sel].(*types.Func)
				if !ok {
					return true
				}
				runs := r.runsOf(fn)
				for i, a := range call.Args {
					if !c.isRegistration(fn, runs, i) {
						continue
					}
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						c.register(fn, lit)
					} else {
						c.registerFunc(fn, a)
					}
				}
				return true
			})
		}
	}
	// handlers registered anywhere in the program were resolved against
	// the whole program, like an interface call: say so (go vet sees only
	// the registrations of a package and its imports)
	for tn, e := range d {
		x := *e
		x.ViaInterface = true
		d[tn] = &x
	}
	return d
}

// MemoryBroadcast is memoryBroadcast for the reporter (locked like Effects).
func (r *programResolver) MemoryBroadcast(t *types.Named, bus, topic *types.Var) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.memoryBroadcast(t, bus, topic)
}

// dispatchFor gives the reporter a copy of a root package's dispatchers.
func (r *programResolver) dispatchFor(pkg *types.Package) map[*types.TypeName]*Effect {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[*types.TypeName]*Effect{}
	if p := r.byTypes[pkg]; p != nil && p.TypesInfo != nil {
		for k, v := range r.dispatchOf(p) {
			out[k] = v
		}
	}
	return out
}

// cacheShaped reports whether an interface is a key-value cache by its
// shape: every method takes a string key, and one takes an expiry
// (Set(ctx, key string, v any, ttl time.Duration)). Its implementations
// may keep entries in a SQL table; they are still a cache, not a store of
// record.
func cacheShaped(iface *types.Interface) bool {
	ttl := false
	for i := 0; i < iface.NumMethods(); i++ {
		params := iface.Method(i).Signature().Params()
		key := false
		for j := 0; j < params.Len(); j++ {
			t := params.At(j).Type()
			if b, ok := t.(*types.Basic); ok && b.Kind() == types.String {
				key = true
			}
			if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration" {
				ttl = ttl || key
			}
		}
		if !key {
			return false
		}
	}
	return ttl
}

// fansOut reports whether n is a struct with a slice, array or map of
// iface values (a composite that calls each).
func fansOut(n *types.Named, iface types.Type) bool {
	return hasField(n, func(t types.Type) bool {
		var elem types.Type
		switch t := t.Underlying().(type) {
		case *types.Slice:
			elem = t.Elem()
		case *types.Array:
			elem = t.Elem()
		case *types.Map:
			elem = t.Elem()
		}
		return elem != nil && types.Identical(elem, iface)
	})
}

// wrapsInterface reports whether a concrete type is a decorator of an
// interface: a struct with a field of that interface type (an event-store
// or logging middleware around the service it implements). Decided from
// the type, not from summaries, which are provisional inside the cycle the
// decorator closes.
func wrapsInterface(n *types.Named, iface types.Type) bool {
	return hasField(n, func(t types.Type) bool { return types.Identical(t, iface) })
}

// hasField reports whether n is a struct with a field whose type matches.
func hasField(n *types.Named, match func(types.Type) bool) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if match(st.Field(i).Type()) {
			return true
		}
	}
	return false
}
