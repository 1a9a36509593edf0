package dualwrite

import (
	"go/ast"
	"go/types"

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

	variadic bool // the last parameter is ...func
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
}

func (*RunsFact) AFact() {}

func (f *RunsFact) String() string { return "runs" }

func (f *RunsFact) runs(variadic bool) *Runs {
	r := &Runs{Commits: f.Commits, variadic: variadic}
	for _, k := range f.Params {
		r.Params = append(r.Params, runKind(k))
	}
	return r
}

func (r *Runs) fact() *RunsFact {
	f := &RunsFact{Commits: r.Commits}
	for _, k := range r.Params {
		f.Params = append(f.Params, uint8(k))
	}
	return f
}

// hasFuncParam reports whether a signature takes a function (so Runs can
// say something about it).
func hasFuncParam(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if isFuncType(sig.Params().At(i).Type()) {
			return true
		}
	}
	return false
}

func isFuncType(t types.Type) bool {
	if s, ok := t.(*types.Slice); ok { // variadic ...func()
		t = s.Elem()
	}
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// runsOfBody computes Runs from a function's body. calleeRuns gives the
// Runs of the functions it hands a parameter to (nil: unknown).
func runsOfBody(info *types.Info, cat *catalog.Catalog, sig *types.Signature, body *ast.BlockStmt, calleeRuns func(*types.Func) *Runs) *Runs {
	n := sig.Params().Len()
	r := &Runs{Params: make([]runKind, n), variadic: sig.Variadic()}
	index := map[types.Object]int{}
	for i := 0; i < n; i++ {
		p := sig.Params().At(i)
		if isFuncType(p.Type()) {
			r.Params[i] = runNever
			index[p] = i
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
	ranSync := false
	commitAfter := false
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
				} else {
					walk(x.Fun, inGo, inLit)
				}
				callee, _ := typeutil.Callee(info, x).(*types.Func)
				var row *catalog.Entry
				var cr *Runs
				if callee != nil {
					if row = cat.Match(callee); row == nil {
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
					if i, ok := param(a); ok {
						switch {
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
	r.Commits = ranSync && commitAfter
	return r
}
