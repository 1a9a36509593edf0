package dualwrite

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// Middlewares around route handlers (CLI). A gin middleware that calls
// c.Next() runs the route's handler there: an audit or activity-log
// middleware that publishes after Next publishes after whatever the
// handler wrote. The resolver reads how the program installs each
// middleware: Use on the engine applies it to every route of the program;
// Use on a group, or Group(path, mw...), to the routes registered on that
// group and its sub-groups, in the same function or in a function the group
// is passed to. Next is then a write when one of those handlers writes.
// Registering stays no run: only Next inside the middleware is.

// routeGroup is a router value seen in one function.
type routeGroup struct {
	parent   *routeGroup
	global   bool       // the engine: its middlewares apply to every route
	mws      []ast.Expr // middlewares installed on it
	handlers []ast.Expr // handlers registered on it
	passed   []chanBind // calls it is passed to (as argument i of fn)
	param    *types.Var // the function's parameter it is, if any
}

type routeRefs struct {
	pkg  *packages.Package
	body *ast.BlockStmt
	hs   []ast.Expr
}

// indexRoutes records, for each middleware (by the full name of the
// function that is it or builds it), the handlers it runs.
func (r *programResolver) indexRoutes(p *packages.Package) {
	info := p.TypesInfo
	api := func(fn *types.Func) (m *catalog.MiddlewareAPI, use, group bool) {
		name := fn.Origin().FullName()
		for i := range catalog.Middlewares {
			a := &catalog.Middlewares[i]
			for _, u := range a.Use {
				if u == name {
					return a, true, false
				}
			}
			for _, g := range a.Group {
				if g == name {
					return a, false, true
				}
			}
		}
		return nil, false, false
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			groups := map[types.Object]*routeGroup{}
			var all []*routeGroup
			var routerOf func(x ast.Expr) *routeGroup
			routerOf = func(x ast.Expr) *routeGroup {
				x = ast.Unparen(x)
				if call, ok := x.(*ast.CallExpr); ok {
					if fn, ok := typeutil.Callee(info, call).(*types.Func); ok {
						if a, _, isGroup := api(fn); a != nil && isGroup {
							sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
							g := &routeGroup{}
							if sel != nil {
								g.parent = routerOf(sel.X)
							}
							if len(call.Args) > 1 {
								g.mws = append(g.mws, call.Args[1:]...)
							}
							all = append(all, g)
							return g
						}
					}
					return nil
				}
				var obj types.Object
				switch e := x.(type) {
				case *ast.Ident:
					obj = info.Uses[e]
				case *ast.SelectorExpr:
					if s := info.Selections[e]; s != nil && s.Kind() == types.FieldVal {
						obj = s.Obj()
					}
				}
				if obj == nil {
					return nil
				}
				if g := groups[obj]; g != nil {
					return g
				}
				g := &routeGroup{}
				if v, ok := obj.(*types.Var); ok {
					for i := 0; i < fd.Type.Params.NumFields(); i++ {
						if sig, ok := info.Defs[fd.Name].(*types.Func); ok && i < sig.Signature().Params().Len() && sig.Signature().Params().At(i) == v {
							g.param = v
						}
					}
				}
				for i := range catalog.Middlewares {
					if named := namedOf(obj.Type()); named != nil && named.Obj().Pkg() != nil &&
						named.Obj().Pkg().Path()+"."+named.Obj().Name() == catalog.Middlewares[i].Engine {
						g.global = true
					}
				}
				groups[obj] = g
				all = append(all, g)
				return g
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.AssignStmt:
					if len(x.Lhs) == len(x.Rhs) {
						for i, l := range x.Lhs {
							obj := identObj(info, l)
							if obj == nil {
								continue
							}
							if call, ok := ast.Unparen(x.Rhs[i]).(*ast.CallExpr); ok {
								if g := routerOf(call); g != nil {
									groups[obj] = g
								}
							}
						}
					}
				case *ast.CallExpr:
					fn, ok := typeutil.Callee(info, x).(*types.Func)
					if !ok {
						return true
					}
					sel, _ := ast.Unparen(x.Fun).(*ast.SelectorExpr)
					if a, use, _ := api(fn); a != nil && use && sel != nil {
						if g := routerOf(sel.X); g != nil {
							g.mws = append(g.mws, x.Args...)
						}
						return true
					}
					if row := r.cat.Match(fn); row != nil && row.Kind == catalog.Later && sel != nil && row.Func >= 0 && row.Func < len(x.Args) {
						if g := routerOf(sel.X); g != nil {
							g.handlers = append(g.handlers, x.Args[row.Func:]...)
						}
						return true
					}
					// a router passed to a function that registers on it
					for i, a := range x.Args {
						if _, isVar := info.Uses[identOf(a)].(*types.Var); !isVar {
							continue
						}
						if g := groups[info.Uses[identOf(a)]]; g != nil {
							g.passed = append(g.passed, chanBind{fn: fn, i: i})
						}
					}
				}
				return true
			})
			for _, g := range all {
				if g.param != nil {
					r.paramRoutes[g.param] = append(r.paramRoutes[g.param], g)
				}
			}
			for _, g := range all {
				for a := g; a != nil; a = a.parent {
					for _, mw := range a.mws {
						name := middlewareName(info, mw)
						if name == "" {
							continue
						}
						if a.global {
							r.globalMW[name] = true
						}
						r.mwGroups[name] = append(r.mwGroups[name], mwAt{g: g, pkg: p, body: fd.Body})
					}
				}
				if len(g.handlers) > 0 {
					r.allRoutes = append(r.allRoutes, routeRefs{pkg: p, body: fd.Body, hs: g.handlers})
				}
			}
		}
	}
}

type mwAt struct {
	g    *routeGroup
	pkg  *packages.Package
	body *ast.BlockStmt
}

func identOf(x ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(x).(*ast.Ident)
	return id
}

func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}

// middlewareName is the full name of the function a middleware argument
// is (r.Use(Auth)) or is built by (r.Use(middleware.Publish())).
func middlewareName(info *types.Info, x ast.Expr) string {
	x = ast.Unparen(x)
	if call, ok := x.(*ast.CallExpr); ok {
		x = call.Fun
	}
	var obj types.Object
	switch e := ast.Unparen(x).(type) {
	case *ast.Ident:
		obj = info.Uses[e]
	case *ast.SelectorExpr:
		obj = info.Uses[e.Sel]
	}
	if fn, ok := obj.(*types.Func); ok {
		return fn.Origin().FullName()
	}
	return ""
}

// routeWrite is the first write of the handlers middleware mw runs in its
// Next call, nil if none writes.
func (r *programResolver) routeWrite(mw string) *Effect {
	if e, ok := r.mwMemo[mw]; ok {
		return e
	}
	r.mwMemo[mw] = nil // recursion: a handler that is itself wrapped
	var found *Effect
	try := func(pkg *packages.Package, body *ast.BlockStmt, hs []ast.Expr) bool {
		for _, h := range hs {
			e := r.valueEffects(fieldVal{expr: h, pkg: pkg, body: body}, h, 0)
			if e != nil && e.Write != nil {
				found = e.Write.through(types.ExprString(h), true, HandleInternal)
				return true
			}
		}
		return false
	}
	if r.globalMW[mw] {
		for _, rr := range r.allRoutes {
			if try(rr.pkg, rr.body, rr.hs) {
				break
			}
		}
	} else {
		seen := map[*routeGroup]bool{}
		var visit func(g *routeGroup, pkg *packages.Package, body *ast.BlockStmt) bool
		visit = func(g *routeGroup, pkg *packages.Package, body *ast.BlockStmt) bool {
			if seen[g] {
				return false
			}
			seen[g] = true
			if try(pkg, body, g.handlers) {
				return true
			}
			for _, b := range g.passed {
				for _, fn := range r.bodiesOf(b.fn) {
					if params := fn.Signature().Params(); b.i < params.Len() {
						for _, pg := range r.paramRoutes[params.At(b.i)] {
							d := r.decls[fn]
							if d.decl != nil && visit(pg, d.pkg, d.decl.Body) {
								return true
							}
						}
					}
				}
			}
			return false
		}
		for _, at := range r.mwGroups[mw] {
			if visit(at.g, at.pkg, at.body) {
				break
			}
		}
	}
	r.mwMemo[mw] = found
	return found
}

// RouteWrite: the analyzer's locked view of routeWrite.
func (r *programResolver) RouteWrite(mw string) *Effect {
	r.mu.Lock()
	defer r.mu.Unlock()
	var e *Effect
	r.settle(func() { e = r.routeWrite(mw) })
	return e
}

// nextCall: the middleware's Next runs the route handlers it is installed
// around; their write happens there.
func (c *collector) nextCall(call *ast.CallExpr, wc wctx) {
	if c.routeWrite == nil || c.self == "" {
		return
	}
	fn, ok := typeutil.Callee(c.info, call).(*types.Func)
	if !ok {
		return
	}
	name := fn.Origin().FullName()
	for _, a := range catalog.Middlewares {
		if a.Next != name {
			continue
		}
		if w := c.routeWrite(c.self); w != nil {
			c.add(evWrite, call.Pos(), call.Rparen, w.through(name, true, HandleInternal), nil, nil, wc)
		}
		return
	}
}
