package dualwrite

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// Function values kept in struct fields (CLI). An event bus often chooses
// its publish function when it is built (publish := conn.Publish, or a
// closure over JetStream) and keeps it in a field; a call of the field is
// then the publish. The resolver indexes every value the program's
// relevant packages store in a func-typed field, in a composite literal
// (Publisher{publish: publish}) or an assignment (p.publish = ...), and a
// call of the field does what those values do. vet sees one package at a
// time and the constructor that stores the value may be anywhere: this is
// the CLI's only.

// fieldVal is one value stored in a func-typed field.
type fieldVal struct {
	expr ast.Expr
	pkg  *packages.Package
	body *ast.BlockStmt // the function the store is in: where a local variable's values are
}

// indexFieldFuncs records the values a package's functions store in
// func-typed fields.
func (r *programResolver) indexFieldFuncs(p *packages.Package) {
	info := p.TypesInfo
	funcField := func(obj types.Object) *types.Var {
		v, ok := obj.(*types.Var)
		if !ok || !v.IsField() {
			return nil
		}
		if _, ok := v.Type().Underlying().(*types.Signature); !ok {
			return nil
		}
		return v
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.CompositeLit:
					for _, el := range x.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						if id, ok := kv.Key.(*ast.Ident); ok {
							if v := funcField(info.Uses[id]); v != nil {
								r.fieldVals[v] = append(r.fieldVals[v], fieldVal{expr: kv.Value, pkg: p, body: fd.Body})
							}
						}
					}
				case *ast.AssignStmt:
					if len(x.Lhs) != len(x.Rhs) {
						return true
					}
					for i, l := range x.Lhs {
						sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
						if !ok {
							continue
						}
						if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
							if v := funcField(s.Obj()); v != nil {
								r.fieldVals[v] = append(r.fieldVals[v], fieldVal{expr: x.Rhs[i], pkg: p, body: fd.Body})
							}
						}
					}
				}
				return true
			})
		}
	}
}

// FieldEffects implements the analyzer's view of fieldEffects (locked,
// settled like Effects).
func (r *programResolver) FieldEffects(v *types.Var) *Effects {
	return settled(r, func() *Effects { return r.fieldEffects(v) })
}

// fieldEffects merges what the values stored in field v do when called:
// a call runs one of them, so the first write and the first publish found
// stand for the call (as for an interface's implementations).
func (r *programResolver) fieldEffects(v *types.Var) *Effects {
	vals := r.fieldVals[v]
	if len(vals) == 0 || r.fieldBusy[v] {
		return nil
	}
	r.fieldBusy[v] = true
	defer delete(r.fieldBusy, v)
	var out Effects
	for _, fv := range vals {
		out.addFirst(r.valueEffects(fv, fv.expr, 0))
	}
	if out.empty() {
		return nil
	}
	return &out
}

// addFirst keeps the first write, publish, outbox insert and query of
// the values a dynamic call may run.
func (out *Effects) addFirst(e *Effects) {
	if e.empty() {
		return
	}
	out.Relay = out.Relay || e.Relay
	if out.Write == nil {
		out.Write = e.Write
	}
	if out.Publish == nil {
		out.Publish = e.Publish
	}
	if out.Outbox == nil {
		out.Outbox = e.Outbox
	}
	if out.Query == nil {
		out.Query = e.Query
	}
}

// valueEffects is what calling the function value x (stored at fv) does:
// a closure's body, a function or method value, a catalogued client
// method (conn.Publish), another func field, or a local variable's values
// in the storing function (publish := conn.Publish; publish = func...).
func (r *programResolver) valueEffects(fv fieldVal, x ast.Expr, depth int) *Effects {
	info := fv.pkg.TypesInfo
	switch e := ast.Unparen(x).(type) {
	case *ast.FuncLit:
		sig, _ := info.TypeOf(e).(*types.Signature)
		if sig == nil {
			return nil
		}
		c := r.newCollector(fv.pkg)
		c.unit(sig, e.Body)
		return c.summarize()
	case *ast.Ident:
		switch obj := info.Uses[e].(type) {
		case *types.Func:
			return r.funcValueEffects(obj)
		case *types.Var:
			if obj.IsField() || depth > 0 {
				return nil
			}
			var out Effects
			for _, val := range localValues(info, fv.body, obj) {
				out.addFirst(r.valueEffects(fv, val, depth+1))
			}
			if out.empty() {
				return nil
			}
			return &out
		}
	case *ast.SelectorExpr:
		if s := info.Selections[e]; s != nil {
			switch s.Kind() {
			case types.MethodVal:
				if fn, ok := s.Obj().(*types.Func); ok {
					return r.funcValueEffects(fn)
				}
			case types.FieldVal:
				if v, ok := s.Obj().(*types.Var); ok {
					return r.fieldEffects(v)
				}
			}
			return nil
		}
		if fn, ok := info.Uses[e.Sel].(*types.Func); ok {
			return r.funcValueEffects(fn) // pkg.Fn
		}
	}
	return nil
}

// funcValueEffects is what calling fn through a value does: a catalogued
// client's write or publish, or fn's summary.
func (r *programResolver) funcValueEffects(fn *types.Func) *Effects {
	if row := r.cat.Match(fn); row != nil {
		switch row.Kind {
		case catalog.Publish:
			if row.Send || row.ListPush || row.Command {
				return nil
			}
			return &Effects{Publish: &Effect{Name: row.Name, Broker: row.Broker, Handle: HandleInternal}}
		case catalog.Write:
			return &Effects{Write: &Effect{Name: row.Name, Store: row.Store, Handle: HandleInternal}}
		}
		return nil
	}
	e, iface := r.effects(fn)
	if e.empty() {
		return nil
	}
	name := fn.Origin().FullName()
	out := &Effects{Relay: e.Relay}
	if e.Write != nil {
		// the value is called with the function's parameters: a write on
		// parameter i is on the call's argument i (op(tx, input) with a
		// handler writing on its tx); a method value's receiver is bound
		h := e.Write.Handle
		if h < 0 {
			h = HandleInternal
		}
		out.Write = e.Write.through(name, iface, h)
	}
	if e.Publish != nil {
		out.Publish = e.Publish.through(name, iface, HandleInternal)
	}
	if e.Outbox != nil {
		out.Outbox = e.Outbox.through(name, iface, HandleInternal)
	}
	return out
}

// localValues are the values a function body binds to a local variable
// (v := x, v = x, var v = x).
func localValues(info *types.Info, body *ast.BlockStmt, v *types.Var) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Lhs) != len(x.Rhs) {
				return true
			}
			for i, l := range x.Lhs {
				if id, ok := l.(*ast.Ident); ok && (info.Defs[id] == v || info.Uses[id] == v) {
					out = append(out, x.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(x.Names) != len(x.Values) {
				return true
			}
			for i, id := range x.Names {
				if info.Defs[id] == v {
					out = append(out, x.Values[i])
				}
			}
		}
		return true
	})
	return out
}
