package dualwrite

import (
	"go/ast"
	"go/types"
	"sort"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// A closure handed to a call is part of the caller's path only if the
// callee runs it before returning (retry.Do, a transaction helper, a
// sync.Once). A route, subscription or dispatcher registration, or a
// constructor that wraps the closure in a handler, runs none of it: each
// such closure is an entry point of its own, checked on its own, and its
// effects must never pair with its siblings'. That is decided from the
// callee's body (structure), not its name: runsOf answers it.

// runKind says how a function runs a func-typed parameter.
type runKind uint8

const (
	runUnknown runKind = iota // no body to look at (and no fact)
	runNever                  // stored, returned or wrapped: runs later, on its own
	runGo                     // run in a goroutine the function starts
	runSync                   // run before the function returns
)

// Runs summarises how a function treats its func-typed parameters.
type Runs struct {
	// Params[i] is how parameter i is run (runUnknown for parameters
	// that are not functions).
	Params []runKind
	// Commits: the function commits a transaction after running a
	// parameter synchronously (a transaction helper such as
	// writer.Do(db, txn, func(txn) error {...})): the closure's writes are
	// committed when the call returns.
	Commits bool
	// Fields says how the function runs func-typed fields of its struct
	// parameters (exec(g *GoRoutine) { go g.Func(ctx) }): a caller that
	// stores its closure in such a field and passes the struct on runs
	// the closure that way.
	Fields map[FieldKey]runKind
	// After: the function calls, after it committed, the function that
	// running this func field returned (a post-commit hook: postCommit,
	// err := opts.Atomic(tx); tx.Commit(); postCommit()).
	After map[FieldKey]bool

	variadic bool // the last parameter is ...func
}

// FieldKey names a func-typed field of a struct parameter.
type FieldKey struct {
	Param int
	Field string
}

func (r *Runs) field(i int, name string) runKind {
	if r == nil {
		return runUnknown
	}
	return r.Fields[FieldKey{i, name}]
}

func (r *Runs) kind(i int) runKind {
	if r == nil {
		return runUnknown
	}
	if i >= len(r.Params) {
		if n := len(r.Params); n > 0 && r.variadic {
			return r.Params[n-1]
		}
		return runUnknown
	}
	return r.Params[i]
}

// RunsFact carries Runs across packages (go vet, golangci-lint).
type RunsFact struct {
	Params  []uint8
	Commits bool
	Fields  []FieldRun // sorted: facts must encode deterministically
}

// FieldRun is one entry of RunsFact.Fields.
type FieldRun struct {
	Param int
	Field string
	Kind  uint8
	After bool
}

func (*RunsFact) AFact() {}

func (f *RunsFact) String() string { return "runs" }

func (f *RunsFact) runs(variadic bool) *Runs {
	r := &Runs{Commits: f.Commits, variadic: variadic}
	for _, k := range f.Params {
		r.Params = append(r.Params, runKind(k))
	}
	for _, fr := range f.Fields {
		if r.Fields == nil {
			r.Fields = map[FieldKey]runKind{}
		}
		r.Fields[FieldKey{fr.Param, fr.Field}] = runKind(fr.Kind)
		if fr.After {
			if r.After == nil {
				r.After = map[FieldKey]bool{}
			}
			r.After[FieldKey{fr.Param, fr.Field}] = true
		}
	}
	return r
}

func (r *Runs) fact() *RunsFact {
	f := &RunsFact{Commits: r.Commits}
	for _, k := range r.Params {
		f.Params = append(f.Params, uint8(k))
	}
	for k, v := range r.Fields {
		f.Fields = append(f.Fields, FieldRun{k.Param, k.Field, uint8(v), r.After[k]})
	}
	sort.Slice(f.Fields, func(i, j int) bool {
		a, b := f.Fields[i], f.Fields[j]
		return a.Param < b.Param || a.Param == b.Param && a.Field < b.Field
	})
	return f
}

// hasFuncParam reports whether a signature takes a function (so Runs can
// say something about it).
func hasFuncParam(sig *types.Signature, pkg *types.Package) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if t := sig.Params().At(i).Type(); isFuncType(t) || funcFields(t, pkg) {
			return true
		}
	}
	return false
}

// funcFields reports whether t is a struct of package pkg, or a pointer to
// one, with a func-typed field (a goroutine helper's record of the closure
// to run). Other packages' structs (*sql.DB keeps funcs too) are not the
// function's own records.
func funcFields(t types.Type, pkg *types.Package) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); !ok || n.Obj().Pkg() != pkg {
		return false
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if _, ok := st.Field(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

func isFuncType(t types.Type) bool {
	if t == nil {
		return false // an expression the type checker could not type (a package with errors)
	}
	if s, ok := t.(*types.Slice); ok { // variadic ...func()
		t = s.Elem()
	}
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// runsOfBody computes Runs from a function's body. calleeRuns gives the
// Runs of the functions it hands a parameter to (nil: unknown).
func runsOfBody(info *types.Info, cat *catalog.Catalog, pkg *types.Package, sig *types.Signature, body *ast.BlockStmt, calleeRuns func(*types.Func) *Runs) *Runs {
	n := sig.Params().Len()
	r := &Runs{Params: make([]runKind, n), variadic: sig.Variadic()}
	index := map[types.Object]int{}
	structs := map[types.Object]int{} // struct parameters with func fields
	for i := 0; i < n; i++ {
		p := sig.Params().At(i)
		if isFuncType(p.Type()) {
			r.Params[i] = runNever
			index[p] = i
		} else if funcFields(p.Type(), pkg) {
			structs[p] = i
		}
	}
	// stored: local struct values holding a func parameter in a field
	// (g := &GoRoutine{Func: fn}), by variable and field name
	stored := map[types.Object]map[string]int{}
	markField := func(i int, name string, k runKind) {
		if r.Fields == nil {
			r.Fields = map[FieldKey]runKind{}
		}
		if key := (FieldKey{i, name}); k > r.Fields[key] {
			r.Fields[key] = k
		}
	}
	if body == nil {
		return r
	}
	mark := func(i int, k runKind) {
		if k > r.Params[i] {
			r.Params[i] = k
		}
	}
	param := func(e ast.Expr) (int, bool) {
		e = ast.Unparen(e)
		if ix, ok := e.(*ast.IndexExpr); ok { // fns[i]() of a variadic ...func
			e = ast.Unparen(ix.X)
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return 0, false
		}
		i, ok := index[info.Uses[id]]
		return i, ok
	}
	// structField: s.F where s is a struct parameter and F a field
	structField := func(e ast.Expr) (int, string, bool) {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return 0, "", false
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		if !ok {
			return 0, "", false
		}
		i, ok := structs[info.Uses[id]]
		return i, sel.Sel.Name, ok
	}
	// storeLit records v := &T{F: fn} / v := T{F: fn} for a func parameter fn.
	storeLit := func(lhs, rhs ast.Expr) {
		id, ok := lhs.(*ast.Ident)
		if !ok {
			return
		}
		x := ast.Unparen(rhs)
		if u, ok := x.(*ast.UnaryExpr); ok {
			x = ast.Unparen(u.X)
		}
		lit, ok := x.(*ast.CompositeLit)
		if !ok {
			return
		}
		obj := info.Defs[id]
		if obj == nil {
			obj = info.Uses[id]
		}
		for _, el := range lit.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			key, ok := kv.Key.(*ast.Ident)
			if !ok {
				continue
			}
			if i, ok := param(kv.Value); ok && obj != nil {
				if stored[obj] == nil {
					stored[obj] = map[string]int{}
				}
				stored[obj][key.Name] = i
			}
		}
	}
	alias := map[types.Object]FieldKey{}  // run := opts.Atomic: the local holds the field
	result := map[types.Object]FieldKey{} // post, err := run(tx): what running the field returned
	objOf := func(e ast.Expr) types.Object { return identObj(info, e) }
	fieldOf := func(e ast.Expr) (FieldKey, bool) {
		if i, name, ok := structField(e); ok {
			return FieldKey{i, name}, true
		}
		if o := objOf(e); o != nil {
			fk, ok := alias[o]
			return fk, ok
		}
		return FieldKey{}, false
	}
	ranSync := false
	commitAfter := false
	opaque := map[int]bool{} // func parameters passed to a callee whose use of them is unknown
	// walk tracks whether the node runs in a goroutine (inGo) or inside a
	// closure that is not run on the spot (deferred: it runs when someone
	// calls it, which this function does not show).
	var walk func(n ast.Node, inGo, inLit bool)
	walk = func(n ast.Node, inGo, inLit bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.GoStmt:
				walk(x.Call, true, inLit)
				return false
			case *ast.AssignStmt:
				if len(x.Lhs) == len(x.Rhs) {
					for j := range x.Lhs {
						storeLit(x.Lhs[j], x.Rhs[j])
						if fk, ok := fieldOf(x.Rhs[j]); ok {
							if o := objOf(x.Lhs[j]); o != nil {
								alias[o] = fk
							}
						}
					}
				}
				if call, ok := ast.Unparen(x.Rhs[len(x.Rhs)-1]).(*ast.CallExpr); ok && len(x.Rhs) == 1 && !inLit {
					if fk, ok := fieldOf(call.Fun); ok {
						if o := objOf(x.Lhs[0]); o != nil {
							result[o] = fk
						}
					}
				}
				return true
			case *ast.FuncLit:
				walk(x.Body, inGo, true)
				return false
			case *ast.RangeStmt:
				// for _, f := range fns { f() }: the range variable is the parameter
				if i, ok := param(x.X); ok {
					if v, ok := x.Value.(*ast.Ident); ok && v != nil {
						if obj := info.Defs[v]; obj != nil {
							index[obj] = i
						}
					}
				}
				return true
			case *ast.CallExpr:
				if lit, ok := ast.Unparen(x.Fun).(*ast.FuncLit); ok {
					walk(lit.Body, inGo, inLit) // func(){ f() }() runs on the spot
					for _, a := range x.Args {
						walk(a, inGo, inLit)
					}
					return false
				}
				k := runSync
				switch {
				case inLit:
					k = runNever
				case inGo:
					k = runGo
				}
				if i, ok := param(x.Fun); ok {
					mark(i, k)
					if k == runSync {
						ranSync = true
					}
				} else if fk, ok := fieldOf(x.Fun); ok {
					markField(fk.Param, fk.Field, k)
					if k == runSync {
						ranSync = true
					}
				} else if fk, ok := result[objOf(x.Fun)]; ok && objOf(x.Fun) != nil {
					if k == runSync && commitAfter {
						if r.After == nil {
							r.After = map[FieldKey]bool{}
						}
						r.After[fk] = true
					}
				} else {
					walk(x.Fun, inGo, inLit)
				}
				callee, _ := typeutil.Callee(info, x).(*types.Func)
				var row *catalog.Entry
				var cr *Runs
				if callee != nil {
					if row = cat.Match(callee); row == nil && callee.Name() == "Commit" && callee.Signature().Recv() != nil && types.IsInterface(callee.Signature().Recv().Type()) {
						if r, _ := cat.MatchInterface(callee, pkg.Imports()...); r != nil && r.Kind == catalog.Commit {
							row = r // the team's transaction interface over a client's Tx
						}
					}
					if row == nil {
						cr = calleeRuns(callee)
					}
				}
				if row != nil && (row.Kind == catalog.Commit || row.Kind == catalog.TxFunc) && ranSync && k == runSync {
					commitAfter = true
				}
				for j, a := range x.Args {
					ck, commits := runUnknown, false
					switch {
					case row != nil && row.Kind == catalog.TxFunc && row.Func == j:
						ck, commits = runSync, true // a client's transaction helper
					case cr != nil:
						ck, commits = cr.kind(j), cr.Commits
					}
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						before := ranSync
						switch ck {
						case runSync:
							walk(lit.Body, inGo, inLit)
						case runGo:
							walk(lit.Body, true, inLit)
						default:
							walk(lit.Body, inGo, true)
						}
						if ck == runSync && commits && ranSync && !before && k == runSync {
							commitAfter = true
						}
						continue
					}
					if id, ok := ast.Unparen(a).(*ast.Ident); ok && cr != nil && k != runNever {
						// a struct holding func parameters in fields, passed on
						for name, i := range stored[info.Uses[id]] {
							switch fk := cr.field(j, name); {
							case fk == runSync:
								mark(i, k)
							case fk == runGo:
								mark(i, runGo)
							}
						}
						if i, ok := structs[info.Uses[id]]; ok {
							for key, fk := range cr.Fields {
								if key.Param == j && fk > runNever {
									if k == runGo {
										fk = runGo // the passing call already runs in a goroutine
									}
									markField(i, key.Field, fk)
								}
							}
						}
					}
					if i, ok := param(a); ok {
						switch {
						case ck == runUnknown && row == nil && callee != nil && k == runSync && !registrationName(callee):
							// handed to a function with no body to read (a
							// library the loader dropped, one without
							// facts): what it does with it is unknown,
							// not "never run"
							opaque[i] = true
						case ck == runSync:
							mark(i, k)
							if k == runSync {
								ranSync = true
								commitAfter = commitAfter || commits
							}
						case ck == runGo && k != runNever:
							mark(i, runGo)
						}
						continue
					}
					walk(a, inGo, inLit)
				}
				return false
			case *ast.SendStmt:
				// tasks <- f: a worker goroutine takes it off the channel
				// and runs it (a pool's Go that never calls f itself)
				if i, ok := param(x.Value); ok && !inLit {
					mark(i, runGo)
				}
				return true
			case *ast.DeferStmt:
				// defer f(): runs before the function returns
				if i, ok := param(x.Call.Fun); ok && !inLit {
					k := runSync
					if inGo {
						k = runGo
					}
					mark(i, k)
				}
				return true
			}
			return true
		})
	}
	walk(body, false, false)
	for i := range opaque {
		if r.Params[i] == runNever {
			r.Params[i] = runUnknown // callers decide as for a call they cannot read
		}
	}
	r.Commits = ranSync && commitAfter
	return r
}
