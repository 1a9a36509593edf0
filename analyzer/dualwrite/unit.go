package dualwrite

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// The unit of work outboxify generates into the outbox writer package
// (outbox.Run, the handle accessors outbox.SQL/Gorm/Pgx, the publish guard
// outbox.Enqueue) is known structurally, so a service fix rewrote is clean
// on a re-scan and a rewrite that lost a piece is reported again:
//   - Run(ctx, fn) runs fn in a transaction that commits when it returns
//     (a transaction callback, like gorm's Transaction);
//   - a write through an accessor joins the unit of the caller's context:
//     inside a Run callback it is on the unit's transaction;
//   - a publish in Enqueue's direct callback is guarded: inside a Run
//     callback it is an outbox row on the unit's transaction; outside one it
//     is the publish it always was (a dual write for that caller).

// unitPackage reports whether pkg is a generated outbox writer with the unit
// of work: it declares Run, Enqueue and ErrOtherDB.
func unitPackage(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	s := pkg.Scope()
	_, run := s.Lookup("Run").(*types.Func)
	_, enq := s.Lookup("Enqueue").(*types.Func)
	_, other := s.Lookup("ErrOtherDB").(*types.Var)
	return run && enq && other
}

// unitRole says what a function of the unit of work is: "run", "enqueue",
// "accessor" (SQL, Gorm, Pgx: a handle for the unit), "begin" (BeginSQL: the
// code's own transaction, which is the unit's inside one), "end"
// (CommitSQL, RollbackSQL: a savepoint's end, not the unit's commit), or "".
func unitRole(fn *types.Func) string {
	if fn == nil || fn.Signature().Recv() != nil || !unitPackage(fn.Pkg()) {
		return ""
	}
	sig := fn.Signature()
	if sig.Params().Len() == 0 || !isContext(sig.Params().At(0).Type()) {
		return ""
	}
	switch fn.Name() {
	case "Run":
		if sig.Params().Len() == 2 {
			return "run"
		}
	case "Enqueue":
		if sig.Params().Len() == 3 {
			return "enqueue"
		}
	case "SQL", "Gorm", "Pgx", "PgxV4", "Sqlx":
		if sig.Params().Len() == 2 && sig.Results().Len() == 1 {
			return "accessor"
		}
	case "BeginSQL", "BeginSQLDetached":
		if sig.Results().Len() == 2 {
			return "begin"
		}
	case "CommitSQL", "RollbackSQL":
		if sig.Params().Len() == 2 && sig.Results().Len() == 1 {
			return "end"
		}
	}
	return ""
}

// runRow is the catalog row a call to outbox.Run stands for: a
// transaction callback (argument 1) that commits when it returns nil.
func runRow(fn *types.Func) *catalog.Entry {
	return &catalog.Entry{Name: fn.FullName(), Kind: catalog.TxFunc, Store: catalog.SQL, Func: 1, SQL: catalog.NoArg, Handle: catalog.NoArg}
}

// throughAccessor reports whether the receiver chain of a call starts at a
// unit accessor: outbox.SQL(ctx, r.db).ExecContext(...),
// outbox.Gorm(ctx, db).Where(...).Updates(...).
func (c *collector) throughAccessor(call *ast.CallExpr) bool {
	e := ast.Expr(call)
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(c.info, x).(*types.Func); ok && unitRole(fn) == "accessor" {
				return true
			}
			if c.onAccessor(x) {
				return true // sqlc's db.New(outbox.SQL(ctx, db)).CreateOrder(...)
			}
			e = x.Fun
		case *ast.SelectorExpr:
			e = x.X
		default:
			return false
		}
	}
}

// inUnit reports whether a walk context is inside a Run callback.
func (c *collector) inUnit(wc wctx) bool {
	return wc.scope != nil && c.unitScopes[wc.scope]
}

// onAccessor reports whether a call is given a unit accessor's handle
// (sqlc's New(outbox.SQL(ctx, db))): the value it builds queries through
// the unit.
func (c *collector) onAccessor(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if ac, ok := ast.Unparen(a).(*ast.CallExpr); ok {
			if fn, ok := typeutil.Callee(c.info, ac).(*types.Func); ok && unitRole(fn) == "accessor" {
				return true
			}
		}
	}
	return false
}
