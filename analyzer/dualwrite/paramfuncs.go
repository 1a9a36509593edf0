package dualwrite

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// Function values passed as arguments (CLI). A handler constructor takes
// the store's methods as func-typed parameters and calls them in the
// handler it returns (HandleMarkFilePublished(store.MarkFilePublished,
// store.CreateFileEvent) http.HandlerFunc); a store method takes the
// publish as a callback and calls it inside its own transaction
// (PublishInTx(ctx, id, publishFn)). What the call of such a parameter
// does depends on what the program passes: the resolver indexes every
// func-typed argument of every call, and a call of the parameter is a
// write (a publish) where every value the callers pass writes (publishes).
// One caller passing a logger is enough to leave the call unknown, so a
// generic helper (retry, a hooks runner) taking many different callbacks
// is no publisher of its own. A parameter the function runs before it
// returns is its callers' business: they see the value they pass at the
// call (Runs), so only parameters run later (in a returned handler, a
// goroutine, a stored hook) or inside a client's transaction callback are
// resolved here. Like func-typed fields, the values may come from
// anywhere: CLI only.

// paramArg is one func-typed argument passed at a call.
type paramArg struct {
	fn *types.Func // the callee as called (an interface method: its implementations take it)
	i  int
	fieldVal
}

// forEachCall calls f with every call of a declared function or method in
// a package's function bodies (closures included), and the body it is in.
func forEachCall(p *packages.Package, f func(body *ast.BlockStmt, call *ast.CallExpr, fn *types.Func)) {
	for _, file := range p.Syntax {
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if fn, ok := typeutil.Callee(p.TypesInfo, call).(*types.Func); ok {
						f(fd.Body, call, fn)
					}
				}
				return true
			})
		}
	}
}

// indexCalls records, in one walk of a package's calls, the func-typed
// arguments (paramfuncs.go) and the event-bus subscriptions (eventbus.go).
func (r *programResolver) indexCalls(p *packages.Package) {
	forEachCall(p, func(body *ast.BlockStmt, call *ast.CallExpr, fn *types.Func) {
		r.noteParamArgs(p, body, call, fn)
		r.noteBusListener(p, body, call, fn)
	})
}

// noteParamArgs records the func-typed arguments of a call of the
// program's own code.
func (r *programResolver) noteParamArgs(p *packages.Package, body *ast.BlockStmt, call *ast.CallExpr, fn *types.Func) {
	if fn.Pkg() == nil || !r.relevant[fn.Pkg()] || r.cat.IsClient(fn.Pkg().Path()) {
		return
	}
	sig := fn.Signature()
	for i, a := range call.Args {
		if i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
			break
		}
		if _, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); !ok || isNilNode(a) {
			continue
		}
		r.paramArgs = append(r.paramArgs, paramArg{fn: fn, i: i, fieldVal: fieldVal{expr: a, pkg: p, body: body}})
	}
}

// paramValsOf is the values the program passes to func-typed parameter v
// (built on first use: an interface method's implementations are known
// once every package is loaded).
func (r *programResolver) paramValsOf(v *types.Var) []fieldVal {
	if r.paramVals == nil {
		r.paramVals = map[*types.Var][]fieldVal{}
		for _, a := range r.paramArgs {
			for _, body := range r.bodiesOf(a.fn) {
				if params := body.Signature().Params(); a.i < params.Len() {
					p := params.At(a.i)
					r.paramVals[p] = append(r.paramVals[p], a.fieldVal)
				}
			}
		}
	}
	return r.paramVals[v]
}

// ParamEffects implements the analyzer's view of paramEffects (locked,
// settled like Effects).
func (r *programResolver) ParamEffects(v *types.Var) *Effects {
	return settled(r, func() *Effects { return r.paramEffects(v) })
}

// paramEffects is what a call of func-typed parameter v does, as every
// value the program passes to it does: the write (publish) of the first
// value where all of them write (publish). A value that both writes and
// publishes is its own dual write, checked where it is written: it
// leaves the parameter unknown.
func (r *programResolver) paramEffects(v *types.Var) *Effects {
	vals := r.paramValsOf(v)
	if len(vals) == 0 || r.paramFnBusy[v] {
		return nil
	}
	r.paramFnBusy[v] = true
	defer delete(r.paramFnBusy, v)
	var out Effects
	allWrite, allPublish := true, true
	for i, fv := range vals {
		var e *Effects
		if pv := identVar(fv.pkg.TypesInfo, fv.expr); pv != nil && !pv.IsField() && len(r.paramValsOf(pv)) > 0 {
			e = r.paramEffects(pv) // a parameter passed on: what its own callers pass
		} else {
			e = r.valueEffects(fv, fv.expr, 0)
		}
		if e == nil || e.Write != nil && e.Publish != nil {
			return nil
		}
		allWrite = allWrite && e.Write != nil
		allPublish = allPublish && e.Publish != nil
		if i == 0 {
			out.Write, out.Publish = e.Write, e.Publish
		}
	}
	if !allWrite {
		out.Write = nil
	}
	if !allPublish {
		out.Publish = nil
	}
	if out.empty() {
		return nil
	}
	return &out
}

// paramResolved: fn (every implementation, for an interface method) calls
// its func-typed parameter i and paramEffects knows what that does.
func (r *programResolver) paramResolved(fn *types.Func, i int) bool {
	bodies := r.bodiesOf(fn)
	for _, body := range bodies {
		params := body.Signature().Params()
		if i >= params.Len() || !r.callsParam(body, params.At(i)) || r.paramEffects(params.At(i)).empty() {
			return false
		}
	}
	return len(bodies) > 0
}

// callsParam: fn's summarised body calls its parameter p itself (not only
// hands it on to a library whose body may not be loaded), so its summary
// holds what the call does.
func (r *programResolver) callsParam(fn *types.Func, p *types.Var) bool {
	if v, ok := r.callsMemo[p]; ok {
		return v
	}
	found := false
	if d, ok := r.decls[fn.Origin()]; ok {
		info := d.pkg.TypesInfo
		ast.Inspect(d.decl.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && !found {
				if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && info.Uses[id] == p {
					found = true
				}
			}
			return !found
		})
	}
	r.callsMemo[p] = found
	return found
}

// ParamResolved is paramResolved, locked and settled.
func (r *programResolver) ParamResolved(fn *types.Func, i int) bool {
	return settled(r, func() bool { return r.paramResolved(fn, i) })
}
