package dualwrite

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// Broadcasts to process memory (the CLI).
//
// A component that publishes on a channel held in one of its fields and
// subscribes to that same channel, on the same bus field, in another of its
// methods is broadcasting to its own replicas: every instance of the
// program receives what any instance sends. When every subscriber the
// program registers on that channel only changes the process's memory
// (evicts a cache entry, clears a map: no store write, no publish, no
// channel send, no goroutine, no call the program cannot read), the
// message keeps in-process state in step across replicas, the way a cache
// invalidation does. A lost one leaves a replica's memory stale until it
// expires; it announces nothing to anyone outside the program, so it is not
// the publish half of a dual write (a cache is not a store of record).
// A subscriber that hands the message on (a channel send towards a
// streaming client, a publish, a write) keeps the publish.
//
// The subscriber's handler usually calls a function its method was given
// (Subscribe(ctx, fn) wraps fn in a decoder): those are resolved to the
// closures and functions every caller of that method passes, program-wide,
// which only the CLI sees; go vet keeps such publishes.

// selfBroadcast reports whether a publishing call inside a method is a
// broadcast to process memory: `recv.bus.M(..., recv.topic, ...)` where the
// receiver's type also subscribes with a handler on recv.bus and recv.topic.
func (c *collector) selfBroadcast(call *ast.CallExpr) bool {
	if c.memoryBroadcast == nil || c.recv == nil {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	bus := recvField(c.info, c.recv, sel.X)
	if bus == nil {
		return false
	}
	named := recvNamed(c.recv)
	if named == nil {
		return false
	}
	for _, a := range call.Args {
		if topic := recvField(c.info, c.recv, a); topic != nil && topic != bus && c.memoryBroadcast(named, bus, topic) {
			return true
		}
	}
	return false
}

// recvField returns the field (its generic origin) that e selects directly
// on the receiver recv (r.bus), nil otherwise.
func recvField(info *types.Info, recv types.Object, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || info.Uses[id] != recv {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal || len(s.Index()) != 1 {
		return nil
	}
	v, _ := s.Obj().(*types.Var)
	if v == nil {
		return nil
	}
	return v.Origin()
}

func recvNamed(recv types.Object) *types.Named {
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	if n == nil {
		return nil
	}
	return n.Origin()
}

type broadcastKey struct {
	t          *types.Named
	bus, topic *types.Var
}

// memoryBroadcast: does t subscribe on bus and topic, with handlers that
// only change process memory? (Called with r.mu held, from a collector.)
func (r *programResolver) memoryBroadcast(t *types.Named, bus, topic *types.Var) bool {
	k := broadcastKey{t, bus, topic}
	if v, ok := r.broadcasts[k]; ok {
		return v
	}
	r.broadcasts[k] = false // recursion guard
	found, ok := false, true
	for i := 0; i < t.NumMethods() && ok; i++ {
		m := t.Method(i)
		d, has := r.decls[m]
		if !has {
			d, has = r.bodies[m]
		}
		if !has || d.decl.Recv == nil || len(d.decl.Recv.List) == 0 || len(d.decl.Recv.List[0].Names) == 0 {
			continue
		}
		info := d.pkg.TypesInfo
		recv := info.Defs[d.decl.Recv.List[0].Names[0]]
		if recv == nil {
			continue
		}
		ast.Inspect(d.decl.Body, func(n ast.Node) bool {
			call, isCall := n.(*ast.CallExpr)
			if !isCall || !ok {
				return ok
			}
			sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !isSel || recvField(info, recv, sel.X) != bus {
				return true
			}
			onTopic := false
			for _, a := range call.Args {
				onTopic = onTopic || recvField(info, recv, a) == topic
			}
			if !onTopic {
				return true
			}
			for _, a := range call.Args {
				h := handlerArg(info, a)
				if h == nil {
					continue
				}
				found = true
				w := &memWalk{r: r, method: m, seen: map[ast.Node]bool{}}
				if !w.body(d.pkg, h, 0) {
					ok = false
				}
			}
			return true
		})
	}
	v := found && ok
	r.broadcasts[k] = v
	return v
}

// handlerArg returns the body-bearing node of a callback argument: a
// closure (its *ast.FuncLit), or nil when a is not a function written out.
func handlerArg(info *types.Info, a ast.Expr) ast.Node {
	if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
		return lit
	}
	return nil
}

// memWalk decides whether code only changes process memory.
type memWalk struct {
	r      *programResolver
	method *types.Func // the subscribing method: calls of its func parameters run what its callers pass
	seen   map[ast.Node]bool
}

const memDepth = 6

// body: n is a *ast.FuncLit or *ast.FuncDecl of package p.
func (w *memWalk) body(p *packages.Package, n ast.Node, depth int) bool {
	if depth > memDepth {
		return false
	}
	if w.seen[n] {
		return true
	}
	w.seen[n] = true
	info := p.TypesInfo
	ok := true
	ast.Inspect(n, func(x ast.Node) bool {
		if !ok {
			return false
		}
		switch x := x.(type) {
		case *ast.SendStmt, *ast.GoStmt:
			ok = false // the message leaves for another goroutine
		case *ast.CallExpr:
			ok = w.call(p, info, x, depth)
		}
		return ok
	})
	return ok
}

func (w *memWalk) call(p *packages.Package, info *types.Info, call *ast.CallExpr, depth int) bool {
	if tv, has := info.Types[call.Fun]; has && tv.IsType() {
		return true // a conversion
	}
	switch callee := typeutil.Callee(info, call).(type) {
	case *types.Builtin:
		return true // delete, clear, len, append...
	case *types.Var:
		// a function value: the subscribing method's parameter runs what
		// its callers pass; any other is unknown
		j := paramIndexOf(w.method, callee)
		if j < 0 {
			return false
		}
		return w.passed(j, depth)
	case *types.Func:
		fn := callee.Origin()
		if w.r.cat.Match(fn) != nil {
			return false // a client call (a store, a broker, a cache)
		}
		if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
			return fn.Pkg() == nil || fn.Pkg().Path() == "context" // error.Error, ctx.Done: anything else may leave the process
		}
		d, has := w.r.decls[fn]
		if !has {
			d, has = w.r.bodies[fn]
		}
		if has {
			return w.body(d.pkg, d.decl, depth+1)
		}
		if fn.Pkg() == nil {
			return true
		}
		if w.isStd(fn.Pkg()) {
			return !ioPackage(fn.Pkg().Path())
		}
		// no body loaded: a package that reaches no store or broker client
		// (a logger); its I/O, if any, is not a message
		return !w.r.relevant[fn.Pkg()]
	}
	return false
}

func (w *memWalk) isStd(p *types.Package) bool {
	for _, s := range w.r.std {
		if s == p {
			return true
		}
	}
	return !strings.Contains(strings.SplitN(p.Path(), "/", 2)[0], ".") && w.r.byTypes[p] == nil
}

// ioPackage: standard packages whose calls reach the network, files or
// other processes.
func ioPackage(path string) bool {
	for _, p := range []string{"net", "os", "syscall", "database/sql", "io"} {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

func paramIndexOf(fn *types.Func, v *types.Var) int {
	params := fn.Signature().Params()
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == v || params.At(i).Origin() == v.Origin() {
			return i
		}
	}
	return -1
}

// passed checks every callback the program passes as argument j of the
// subscribing method.
func (w *memWalk) passed(j int, depth int) bool {
	sites := w.r.callSites(w.method)
	if len(sites) == 0 {
		return false // no caller loaded: unknown subscribers
	}
	for _, s := range sites {
		if j >= len(s.call.Args) {
			return false
		}
		h := handlerArg(s.pkg.TypesInfo, s.call.Args[j])
		if h == nil || !w.body(s.pkg, h, depth+1) {
			return false
		}
	}
	return true
}

type callSite struct {
	call *ast.CallExpr
	pkg  *packages.Package
}

// callSites lists the calls of fn (its generic origin) in the program's own
// packages; the index (every call of a function taking a func parameter) is
// built once, on first use.
func (r *programResolver) callSites(fn *types.Func) []callSite {
	if r.calls == nil {
		r.calls = map[*types.Func][]callSite{}
		for t, p := range r.byTypes {
			if !r.own[t] || p.TypesInfo == nil {
				continue
			}
			for _, f := range p.Syntax {
				if strings.HasSuffix(p.Fset.File(f.Pos()).Name(), "_test.go") {
					continue
				}
				ast.Inspect(f, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok {
						if callee, ok := typeutil.Callee(p.TypesInfo, call).(*types.Func); ok && hasFuncParam(callee.Signature(), callee.Pkg()) {
							r.calls[callee.Origin()] = append(r.calls[callee.Origin()], callSite{call, p})
						}
					}
					return true
				})
			}
		}
	}
	return r.calls[fn]
}
