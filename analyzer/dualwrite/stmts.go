package dualwrite

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Services that prepare their statements at start-up keep them in struct
// fields and run them later with no SQL in sight:
//
//	sqlutil.StatementList{{&s.insertKeyStmt, insertKeySQL}, ...}.Prepare(db)
//	s.insertKeyStmt, err = db.PrepareContext(ctx, insertKeySQL)
//	...
//	s.insertKeyStmt.QueryRowContext(ctx, id)   // INSERT ... RETURNING: a write
//
// stmtFields maps such fields to the SQL they were prepared with, so a
// statement's query is classified by its text (an INSERT ... RETURNING run
// with QueryRow writes; a CREATE TABLE run with Exec does not).

// stmtFields collects, from one package's files, the struct fields that
// hold a statement prepared with constant SQL.
func stmtFields(info *types.Info, files []*ast.File) map[*types.Var]string {
	out := map[*types.Var]string{}
	constStr := func(e ast.Expr) (string, bool) {
		tv, ok := info.Types[e]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(tv.Value), true
	}
	field := func(e ast.Expr) *types.Var {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return nil
		}
		v, _ := s.Obj().(*types.Var)
		if v == nil || !isStmtType(v.Type()) {
			return nil
		}
		return v.Origin()
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CompositeLit:
				// {&s.insertStmt, insertSQL}: a field and its SQL side by side
				var v *types.Var
				sql, has := "", false
				for _, el := range x.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						el = kv.Value
					}
					if fv := field(el); fv != nil {
						v = fv
					} else if s, ok := constStr(el); ok {
						sql, has = s, true
					}
				}
				if v != nil && has {
					out[v] = sql
				}
			case *ast.AssignStmt:
				// s.insertStmt, err = db.PrepareContext(ctx, insertSQL)
				if len(x.Rhs) != 1 {
					return true
				}
				call, ok := ast.Unparen(x.Rhs[0]).(*ast.CallExpr)
				if !ok {
					return true
				}
				fn, ok := typeutil.Callee(info, call).(*types.Func)
				if !ok || !strings.HasPrefix(fn.Name(), "Prepare") {
					return true
				}
				for _, a := range call.Args {
					if s, ok := constStr(a); ok {
						if v := field(x.Lhs[0]); v != nil {
							out[v] = s
						}
						break
					}
				}
			}
			return true
		})
	}
	return out
}

// isStmtType: a prepared statement handle (*sql.Stmt, *sqlx.Stmt, a
// pointer to one, or any type named Stmt).
func isStmtType(t types.Type) bool {
	for i := 0; i < 2; i++ {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && strings.HasSuffix(n.Obj().Name(), "Stmt")
}

// stmtSQL returns the SQL a statement call's receiver was prepared with.
func (c *collector) stmtSQL(call *ast.CallExpr) (string, bool) {
	if c.stmts == nil {
		return "", false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	recv, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	s := c.info.Selections[recv]
	if s == nil || s.Kind() != types.FieldVal {
		return "", false
	}
	v, _ := s.Obj().(*types.Var)
	if v == nil {
		return "", false
	}
	return c.stmts(v.Origin())
}
