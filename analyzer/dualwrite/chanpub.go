package dualwrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// Publishes handed to a goroutine over a channel field (CLI). An emitter
// often queues its events on a buffered channel that a goroutine started
// at construction drains and publishes (for ev := range e.queue {
// handler.Handle(ev) }): the send is then the publish, made after the
// request's write as surely as a direct call would be. The resolver
// indexes every receive of a value from a channel-typed struct field
// (range with a variable, or x := <-f), and a send on that field does
// the publish the receiving function does. Signals (chan struct{}, a
// receive whose value is dropped) are not indexed. Like func-typed
// fields, the constructor and the drain may be anywhere: CLI only.

// chanRecv is one function that takes values off a channel field.
type chanRecv struct {
	fn  *types.Func  // the declared function holding the receive, or
	lit *ast.FuncLit // the closure holding it (go func() { for ... }())
	pkg *packages.Package
}

// chanBind: a channel passed as argument i of fn (producer.Start(ctx,
// b.kafkaChan)): what fn's parameter carries, the channel carries.
type chanBind struct {
	fn *types.Func
	i  int
}

// indexChanRecvs records the receives of a package's functions from
// channel-typed fields, and where a field's channel goes: passed to a
// function (chanBinds) or a parameter stored in a field (chanFlows), so a
// producer started with the service's channel (Start(ctx, ch) keeping ch
// in its own field and ranging over it in a goroutine) is found too.
func (r *programResolver) indexChanRecvs(p *packages.Package) {
	info := p.TypesInfo
	chanVar := func(v *types.Var) bool {
		ch, ok := underChan(v.Type())
		if !ok || ch.Dir() == types.SendOnly {
			return false
		}
		st, ok := ch.Elem().Underlying().(*types.Struct)
		return !ok || st.NumFields() > 0 // not a signal
	}
	chanField := func(x ast.Expr) *types.Var {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return nil
		}
		if v, ok := s.Obj().(*types.Var); ok && chanVar(v) {
			return v
		}
		return nil
	}
	var walk func(n ast.Node, at chanRecv)
	walk = func(n ast.Node, at chanRecv) {
		local := map[*types.Var]*types.Var{} // ch := c.publishChannel: the field ch holds
		// the channel x is: a field, a local holding a field, or a parameter
		source := func(x ast.Expr) *types.Var {
			if v := chanField(x); v != nil {
				return v
			}
			id, ok := ast.Unparen(x).(*ast.Ident)
			if !ok {
				return nil
			}
			v, ok := info.Uses[id].(*types.Var)
			if !ok || !chanVar(v) {
				return nil
			}
			if f := local[v]; f != nil {
				return f
			}
			return v
		}
		recvd := func(x ast.Expr) *types.Var {
			if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				return source(u.X)
			}
			return nil
		}
		ast.Inspect(n, func(n ast.Node) bool {
			var v *types.Var
			switch x := n.(type) {
			case *ast.FuncLit:
				walk(x.Body, chanRecv{lit: x, pkg: p})
				return false
			case *ast.RangeStmt:
				if x.Key != nil {
					v = source(x.X)
				}
			case *ast.AssignStmt:
				if len(x.Rhs) == 1 {
					v = recvd(x.Rhs[0])
				}
				if len(x.Lhs) == len(x.Rhs) {
					for i, l := range x.Lhs {
						if f := chanField(l); f != nil {
							// c.publishChannel = ch: what ch carries, the field carries
							if src := source(x.Rhs[i]); src != nil && src != f {
								r.chanFlows[src] = append(r.chanFlows[src], f)
							}
						} else if id, ok := l.(*ast.Ident); ok {
							lv, _ := info.Defs[id].(*types.Var)
							if lv == nil {
								lv, _ = info.Uses[id].(*types.Var)
							}
							if lv != nil {
								if f := chanField(x.Rhs[i]); f != nil {
									local[lv] = f
								}
							}
						}
					}
				}
			case *ast.ValueSpec:
				if len(x.Values) == 1 {
					v = recvd(x.Values[0])
				}
			case *ast.CallExpr:
				if fn, ok := typeutil.Callee(info, x).(*types.Func); ok {
					params := fn.Signature().Params()
					for i, a := range x.Args {
						if i >= params.Len() {
							break
						}
						if src := source(a); src != nil {
							r.chanBinds[src] = append(r.chanBinds[src], chanBind{fn: fn, i: i})
						}
					}
				}
			}
			if v != nil {
				r.chanRecvs[v] = append(r.chanRecvs[v], at)
			}
			return true
		})
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
				walk(fd.Body, chanRecv{fn: fn, pkg: p})
			}
		}
	}
}

// chanPublishes is the publish a send on channel field v stands for: the
// first publish of the functions that receive from it, nil if none
// publishes.
func (r *programResolver) chanPublishes(v *types.Var) *Effect {
	recvs := r.chanRecvs[v]
	if len(recvs) == 0 && len(r.chanFlows[v]) == 0 && len(r.chanBinds[v]) == 0 || r.chanBusy[v] {
		return nil
	}
	r.chanBusy[v] = true
	defer delete(r.chanBusy, v)
	for _, w := range r.chanFlows[v] {
		if p := r.chanPublishes(w); p != nil {
			return p
		}
	}
	for _, b := range r.chanBinds[v] {
		for _, fn := range r.bodiesOf(b.fn) {
			if params := fn.Signature().Params(); b.i < params.Len() {
				if p := r.chanPublishes(params.At(b.i)); p != nil {
					if fn != b.fn.Origin() {
						q := *p // the producer was found through its interface
						q.ViaInterface = true
						return &q
					}
					return p
				}
			}
		}
	}
	for _, at := range recvs {
		var e *Effects
		if at.fn != nil {
			e = r.funcValueEffects(at.fn)
		} else {
			c := r.newCollector(at.pkg)
			if sig, ok := at.pkg.TypesInfo.TypeOf(at.lit).(*types.Signature); ok {
				c.unit(sig, at.lit.Body)
				e = c.summarize()
			}
		}
		if e != nil && e.Publish != nil {
			return e.Publish
		}
	}
	return nil
}

// bodiesOf is fn itself, or for an interface method the methods of the
// program's types that implement the interface.
func (r *programResolver) bodiesOf(fn *types.Func) []*types.Func {
	recv := fn.Signature().Recv()
	if recv == nil || !types.IsInterface(recv.Type()) {
		return []*types.Func{fn.Origin()}
	}
	iface, _ := recv.Type().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	impls, _ := r.implementations(fn, iface)
	out := make([]*types.Func, 0, len(impls))
	for _, im := range impls {
		out = append(out, im.fn)
	}
	return out
}

// ChanPublishes implements the analyzer's view of chanPublishes (locked,
// settled like Effects).
func (r *programResolver) ChanPublishes(v *types.Var) *Effect {
	r.mu.Lock()
	defer r.mu.Unlock()
	var e *Effect
	r.settle(func() { e = r.chanPublishes(v) })
	return e
}
