package dualwrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
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

// indexChanRecvs records the receives of a package's functions from
// channel-typed fields.
func (r *programResolver) indexChanRecvs(p *packages.Package) {
	info := p.TypesInfo
	chanField := func(x ast.Expr) *types.Var {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return nil
		}
		v, ok := s.Obj().(*types.Var)
		if !ok {
			return nil
		}
		ch, ok := underChan(v.Type())
		if !ok || ch.Dir() == types.SendOnly {
			return nil
		}
		if st, ok := ch.Elem().Underlying().(*types.Struct); ok && st.NumFields() == 0 {
			return nil // a signal
		}
		return v
	}
	recvd := func(x ast.Expr) *types.Var {
		if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			return chanField(u.X)
		}
		return nil
	}
	var walk func(n ast.Node, at chanRecv)
	walk = func(n ast.Node, at chanRecv) {
		ast.Inspect(n, func(n ast.Node) bool {
			var v *types.Var
			switch x := n.(type) {
			case *ast.FuncLit:
				walk(x.Body, chanRecv{lit: x, pkg: p})
				return false
			case *ast.RangeStmt:
				if x.Key != nil {
					v = chanField(x.X)
				}
			case *ast.AssignStmt:
				if len(x.Rhs) == 1 {
					v = recvd(x.Rhs[0])
				}
			case *ast.ValueSpec:
				if len(x.Values) == 1 {
					v = recvd(x.Values[0])
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
	if len(recvs) == 0 || r.chanBusy[v] {
		return nil
	}
	r.chanBusy[v] = true
	defer delete(r.chanBusy, v)
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

// ChanPublishes implements the analyzer's view of chanPublishes (locked,
// settled like Effects).
func (r *programResolver) ChanPublishes(v *types.Var) *Effect {
	r.mu.Lock()
	defer r.mu.Unlock()
	var e *Effect
	r.settle(func() { e = r.chanPublishes(v) })
	return e
}
