package rewrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/dst"

	"github.com/outboxify/outboxify/templates"
)

// unit is the publish as a removable piece of code.
type unit struct {
	call   *ast.CallExpr
	expr   ast.Expr        // call plus result-chain methods (.FirstErr(), .Err(), .Get(ctx))
	stmt   ast.Stmt        // statement holding expr
	top    ast.Stmt        // stmt or the goroutine/defer/retry loop that only served it
	extras []ast.Stmt      // error check of the publish's result, removed with it
	ret    *ast.ReturnStmt // `return publish(...)`: the publish's error is returned
	errObj types.Object
	fn     ast.Node // function the outbox insert goes in
	msgs   []message
	x      *extractor
}

const adviceCallee = "make the function that writes take the transaction (a tx parameter, sqlc's Queries.WithTx) and call outbox.Insert on it before Commit"

// plan decides the strategy for one finding and prepares the edit.
// why is non-empty when the finding must be fixed by hand.
func (fr *fileRewriter) plan(l *located) (p *plan, why, advice string) {
	u, why := fr.analyzeUnit(l)
	if why != "" {
		return nil, why, ""
	}
	sig := fr.signature(u.fn)
	if sig == nil || sig.Results().Len() == 0 || !isErrorType(sig.Results().At(sig.Results().Len()-1).Type()) {
		return nil, "the function returns no error, so a failed outbox insert could not abort the transaction", "return an error from the function (or handle the insert's error) and insert the outbox row on the transaction by hand"
	}
	_, body := funcParts(u.fn)

	// Transaction: a gorm Transaction callback holding the publish, or a
	// committed transaction variable in the function.
	if cb := fr.gormCallback(u.fn); cb != nil {
		return fr.planInPlace(u, ast.NewIdent(cb.Name), nil)
	}
	txs := fr.committedTxs(body)
	gormTx := fr.gormTransactions(body)
	var writeCall *ast.CallExpr
	if l.f.Write != nil && len(l.f.Write.Via) == 0 && l.f.Write.Position.Filename == l.pkg.Fset.File(l.file.FileStart).Name() {
		writeCall = fr.callAtLine(body, l.f.Write.Position.Line, l.f.Write.Position.Column)
	}
	switch {
	case len(txs) > 1:
		if writeCall != nil {
			if sel, ok := ast.Unparen(writeCall.Fun).(*ast.SelectorExpr); ok {
				if c, ok := txs[fr.objOf(sel.X)]; ok {
					return fr.planCommitted(u, fr.objOf(sel.X), c)
				}
			}
		}
		return nil, "the function uses several transactions; which one the event belongs to is a choice", ""
	case len(txs) == 1:
		for obj, c := range txs {
			return fr.planCommitted(u, obj, c)
		}
	case len(gormTx) == 1:
		return fr.planGormAfter(u, gormTx[0])
	case len(gormTx) > 1:
		return nil, "the function runs several gorm transactions; which one the event belongs to is a choice", ""
	}
	if l.f.Write != nil && len(l.f.Write.Via) > 0 {
		return nil, "the write happens in " + l.f.Write.Via[len(l.f.Write.Via)-1] + ", behind a call: the transaction must be opened where the write is", adviceCallee
	}
	if writeCall == nil {
		return nil, "the DB write is not in this function", adviceCallee
	}
	return fr.planOpen(u, writeCall)
}

// analyzeUnit finds what code the publish is and what the message is.
func (fr *fileRewriter) analyzeUnit(l *located) (*unit, string) {
	pub := publishers[l.name]
	if pub.messages == nil {
		return nil, "no rewrite rule for " + l.name + " (its message cannot be mapped to an outbox row)"
	}
	u := &unit{call: l.call, expr: l.call}
	for {
		sel, ok := fr.parent[u.expr].(*ast.SelectorExpr)
		if !ok || sel.X != u.expr || !slices.Contains(pub.chain, sel.Sel.Name) {
			break
		}
		c, ok := fr.parent[sel].(*ast.CallExpr)
		if !ok || c.Fun != sel {
			break
		}
		u.expr = c
	}
	u.stmt = fr.enclosingStmt(u.expr)
	if u.stmt == nil {
		return nil, "the publish is not in a statement list"
	}
	switch s := u.stmt.(type) {
	case *ast.ExprStmt:
		if s.X != u.expr {
			return nil, "the publish is part of a larger expression"
		}
	case *ast.AssignStmt:
		if why := fr.resultUse(u, s); why != "" {
			return nil, why
		}
		if u.errObj != nil {
			if next := fr.nextStmt(s); next != nil {
				if is, ok := next.(*ast.IfStmt); ok && is.Init == nil && is.Else == nil && fr.isErrCheck(is.Cond, u.errObj) {
					u.extras = append(u.extras, is)
				}
			}
		}
	case *ast.IfStmt:
		if s.Else != nil {
			return nil, "the publish's if statement has an else branch that runs on success"
		}
		if as, ok := s.Init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && as.Rhs[0] == u.expr {
			if why := fr.resultUse(u, as); why != "" {
				return nil, why
			}
			if u.errObj == nil || !(fr.isErrCheck(s.Cond, u.errObj) || (fr.isErrTest(s.Cond, u.errObj, token.EQL) && fr.servingNode(s.Body))) {
				return nil, "the publish's result is tested for something other than its error"
			}
		} else if b, ok := s.Cond.(*ast.BinaryExpr); !ok || b.X != u.expr || b.Op != token.NEQ {
			return nil, "the publish's result is used in a condition"
		}
	case *ast.ReturnStmt:
		last := len(s.Results) - 1
		if last < 0 || s.Results[last] != u.expr || !isErrorType(fr.info.TypeOf(u.expr)) {
			return nil, "the publish's result is returned"
		}
		u.ret = s
	case *ast.GoStmt, *ast.DeferStmt:
		if u.expr != u.call {
			return nil, "the publish's result is used"
		}
	default:
		return nil, "the publish is in an unusual statement"
	}
	u.top = u.stmt
	// Goroutine, defer or retry loop that only served the publish: the
	// outbox insert replaces the whole of it.
	for {
		blk := fr.parent[u.top]
		body, ok := blk.(*ast.BlockStmt)
		if !ok {
			break
		}
		owner := fr.parent[body]
		if lit, ok := owner.(*ast.FuncLit); ok {
			call, ok := fr.parent[lit].(*ast.CallExpr)
			if !ok || call.Fun != lit || len(call.Args) != 0 {
				break
			}
			st := fr.parent[call]
			switch st.(type) {
			case *ast.GoStmt, *ast.DeferStmt:
			default:
				break
			}
			if _, ok := st.(*ast.GoStmt); !ok {
				if _, ok := st.(*ast.DeferStmt); !ok {
					break
				}
			}
			if !fr.onlyServes(body.List, u.top, u.extras) {
				return nil, "the goroutine or deferred function does more than publish"
			}
			u.top = st.(ast.Stmt)
			u.extras = nil
			continue
		}
		if loop, ok := owner.(*ast.ForStmt); ok {
			if !fr.onlyServes(body.List, u.top, u.extras) || !fr.servingNode(loop.Init) || !fr.servingNode(loop.Cond) || !fr.servingNode(loop.Post) {
				break // a loop doing other work keeps its shape; the insert goes inside
			}
			u.top = loop
			u.extras = nil
			continue
		}
		break
	}
	if _, ok := u.top.(*ast.DeferStmt); ok && u.top == u.stmt {
		// defer publish(...) runs at return; the insert runs where it is, in the transaction.
	}
	if u.ret != nil && u.top != u.stmt {
		return nil, "the publish's result is returned from a wrapper"
	}
	u.fn = fr.enclosingFunc(u.top)
	if u.fn == nil {
		return nil, "the publish is not in a function"
	}
	_, body := funcParts(u.fn)
	u.x = &extractor{info: fr.info, dec: fr.dec, body: body}
	msgs, why := publishers[l.name].messages(u.x, u.call)
	if why != "" {
		return nil, why
	}
	if len(msgs) == 0 {
		return nil, "the publish sends no message"
	}
	u.msgs = msgs
	// A broker handle made locally only for this publish goes too
	// (w := &kafka.Writer{...}; w.WriteMessages(...)): left alone it would
	// be an unused variable.
	if sel, ok := ast.Unparen(u.call.Fun).(*ast.SelectorExpr); ok {
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
			if def := fr.onlyUseDef(body, id); def != nil {
				u.x.removable = append(u.x.removable, def)
			}
		}
	}
	return u, ""
}

// onlyUseDef returns the `v := <literal>` statement declaring the local
// variable id refers to, when id is its only use and the value has no side
// effects (a composite literal, or its address).
func (fr *fileRewriter) onlyUseDef(body *ast.BlockStmt, id *ast.Ident) ast.Stmt {
	obj, ok := fr.info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	var def ast.Stmt
	uses := 0
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
				if l, ok := n.Lhs[0].(*ast.Ident); ok && fr.info.Defs[l] == obj {
					v := ast.Unparen(n.Rhs[0])
					if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
						v = u.X
					}
					if _, ok := v.(*ast.CompositeLit); ok {
						def = n
					}
				}
			}
		case *ast.Ident:
			if fr.info.Uses[n] == obj {
				uses++
			}
		}
		return true
	})
	if uses != 1 || def == nil {
		return nil
	}
	return def
}

// resultUse checks the publish's assigned results: only its error may be
// used; anything else (offset, ack, server id) means the code depends on
// the broker having answered.
func (fr *fileRewriter) resultUse(u *unit, as *ast.AssignStmt) string {
	if len(as.Rhs) != 1 || as.Rhs[0] != u.expr {
		return "the publish is part of a larger assignment"
	}
	for i, l := range as.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			return "the publish's result is stored in a field"
		}
		if id.Name == "_" {
			continue
		}
		obj := fr.info.ObjectOf(id)
		t := fr.info.TypeOf(u.expr)
		if tup, ok := t.(*types.Tuple); ok {
			t = tup.At(i).Type()
		}
		if isErrorType(t) {
			u.errObj = obj
			continue
		}
		if fr.usedOutside(obj, as) {
			return "the publish's result (" + id.Name + ") is used, so the code depends on the broker's answer"
		}
	}
	return ""
}

func (fr *fileRewriter) usedOutside(obj types.Object, except ast.Node) bool {
	fn := fr.enclosingFunc(except)
	used := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == except {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && fr.info.Uses[id] == obj {
			used = true
		}
		return !used
	})
	return used
}

func (fr *fileRewriter) nextStmt(s ast.Stmt) ast.Stmt {
	l := stmtList(fr.parent[s])
	for i, x := range l {
		if x == s && i+1 < len(l) {
			return l[i+1]
		}
	}
	return nil
}

func (fr *fileRewriter) isErrCheck(cond ast.Expr, errObj types.Object) bool {
	return fr.isErrTest(cond, errObj, token.NEQ)
}

// isErrTest reports whether cond is `err <op> nil` on errObj.
func (fr *fileRewriter) isErrTest(cond ast.Expr, errObj types.Object, op token.Token) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != op {
		return false
	}
	id, ok := b.X.(*ast.Ident)
	nilID, ok2 := b.Y.(*ast.Ident)
	return ok && ok2 && fr.info.Uses[id] == errObj && nilID.Name == "nil"
}

// onlyServes reports whether every statement of list other than the
// publish (and its checks) only logs, sleeps or branches.
func (fr *fileRewriter) onlyServes(list []ast.Stmt, pub ast.Stmt, extras []ast.Stmt) bool {
	for _, s := range list {
		if s == pub || slices.Contains(extras, s) {
			continue
		}
		if !fr.servingNode(s) {
			return false
		}
	}
	return true
}

func (fr *fileRewriter) servingNode(n ast.Node) bool {
	if n == nil || (func() bool { s, ok := n.(ast.Stmt); return ok && s == nil })() {
		return true
	}
	ok := true
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			if tv, isT := fr.info.Types[x.Fun]; isT && tv.IsType() {
				return true
			}
			if b, isB := fr.objOf(x.Fun).(*types.Builtin); isB && b != nil {
				return true
			}
			f, isF := fr.objOf(x.Fun).(*types.Func)
			if !isF || f.Pkg() == nil || !servingPackages[f.Pkg().Path()] {
				ok = false
			}
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if _, isID := l.(*ast.Ident); !isID {
					ok = false
				}
			}
		case *ast.FuncLit, *ast.GoStmt, *ast.SendStmt:
			ok = false
		}
		return ok
	})
	return ok
}

// ---- transactions ----

// committedTxs maps each transaction variable of body that is committed in
// it to its Commit call.
func (fr *fileRewriter) committedTxs(body *ast.BlockStmt) map[types.Object]*ast.CallExpr {
	out := map[types.Object]*ast.CallExpr{}
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Commit" {
			return true
		}
		if txClientOf(fr.info.TypeOf(sel.X), true) == nil {
			return true
		}
		if obj := fr.objOf(sel.X); obj != nil {
			if _, dup := out[obj]; dup {
				out[obj] = nil // committed twice: ambiguous
			} else {
				out[obj] = call
			}
		}
		return true
	})
	return out
}

// txClientOf returns the client whose transaction (tx=true) or handle type t is.
func txClientOf(t types.Type, tx bool) *txClient {
	if t == nil {
		return nil
	}
	s := types.TypeString(t, nil)
	for _, c := range txClients {
		list := c.handles
		if tx {
			list = c.txTypes
		}
		if slices.Contains(list, s) && !(tx && c.name == "gorm") {
			return c
		}
	}
	return nil
}

const gormTransaction = "(*gorm.io/gorm.DB).Transaction"

// gormCallback returns the transaction parameter when fn is the callback of
// a gorm Transaction call.
func (fr *fileRewriter) gormCallback(fn ast.Node) *ast.Ident {
	lit, ok := fn.(*ast.FuncLit)
	if !ok {
		return nil
	}
	call, ok := fr.parent[lit].(*ast.CallExpr)
	if !ok || len(call.Args) == 0 || call.Args[0] != lit || fr.callName(call) != gormTransaction {
		return nil
	}
	ps := lit.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) != 1 {
		return nil
	}
	return ps[0].Names[0]
}

func (fr *fileRewriter) gormTransactions(body *ast.BlockStmt) []*ast.CallExpr {
	var out []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && fr.callName(call) == gormTransaction {
			if _, ok := call.Args[0].(*ast.FuncLit); ok {
				out = append(out, call)
			}
		}
		return true
	})
	return out
}

// callAtLine returns the outermost-starting call at line:col in body.
func (fr *fileRewriter) callAtLine(body *ast.BlockStmt, line, col int) *ast.CallExpr {
	var best *ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		p := fr.pkg.Fset.Position(call.Pos())
		e := fr.pkg.Fset.Position(call.Lparen)
		if p.Line <= line && e.Line >= line && (col == 0 || (p.Line < line || p.Column <= col)) {
			if _, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				best = call // innermost wins: Inspect goes outside-in
			}
		}
		return true
	})
	return best
}

// ---- building the insert ----

// insertStmts builds `if err := outbox.Insert(ctx, tx, outbox.Message{...}); err != nil { return ..., err }`
// for every message.
func (fr *fileRewriter) insertStmts(u *unit, at ast.Node, txExpr dst.Expr, txType types.Type) ([]dst.Stmt, []*dst.CallExpr, string) {
	zeros, why := fr.zeroResults(u.fn)
	if why != "" {
		return nil, nil, why
	}
	insertFn := fr.writerFor(txType)
	if insertFn == "Insert" && !fr.txFits(txType) {
		return nil, nil, "the outbox writer's Insert takes " + types.TypeString(fr.insertParam, nil) + ", but this transaction is a " + types.TypeString(txType, nil) + "; generate the writer for this driver (or pass --outbox-pkg) and run fix again"
	}
	var stmts []dst.Stmt
	var calls []*dst.CallExpr
	for _, m := range u.msgs {
		tx := dst.Clone(txExpr).(dst.Expr)
		if insertFn == "Insert" {
			tx = fr.adaptTx(tx, txType)
		}
		call := &dst.CallExpr{
			Fun:  &dst.Ident{Name: insertFn, Path: fr.opts.OutboxPkg},
			Args: []dst.Expr{fr.ctxExpr(u, at), tx, messageLit(fr.opts.OutboxPkg, m)},
		}
		stmts = append(stmts, errCheck(call, zeros))
		calls = append(calls, call)
	}
	return stmts, calls, ""
}

func kv(k string, v dst.Expr) *dst.KeyValueExpr {
	return &dst.KeyValueExpr{Key: dst.NewIdent(k), Value: v}
}

// errCheck is `if err := call; err != nil { return zeros..., err }`.
func errCheck(call dst.Expr, zeros []dst.Expr) *dst.IfStmt {
	var results []dst.Expr
	for _, z := range zeros {
		results = append(results, dst.Clone(z).(dst.Expr))
	}
	results = append(results, dst.NewIdent("err"))
	s := &dst.IfStmt{
		Init: &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent("err")}, Tok: token.DEFINE, Rhs: []dst.Expr{call}},
		Cond: &dst.BinaryExpr{X: dst.NewIdent("err"), Op: token.NEQ, Y: dst.NewIdent("nil")},
		Body: &dst.BlockStmt{List: []dst.Stmt{&dst.ReturnStmt{Results: results}}},
	}
	s.Decs.Before = dst.NewLine
	s.Decs.After = dst.NewLine
	return s
}

// txDrivers maps the package of a transaction type to its driver.
var txDrivers = map[string]string{
	"database/sql":            "database/sql",
	"github.com/jmoiron/sqlx": "sqlx",
	"github.com/jackc/pgx/v5": "pgx",
	"github.com/jackc/pgx/v4": "pgx4",
	"gorm.io/gorm":            "gorm",
}

// writerFor names the writer function for a transaction of type txType: its
// driver's own writer when one is generated in this run (or exists in the
// loaded writer package), else Insert.
func (fr *fileRewriter) writerFor(txType types.Type) string {
	if txType == nil {
		return "Insert"
	}
	t := txType
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return "Insert"
	}
	driver, ok := txDrivers[named.Obj().Pkg().Path()]
	if !ok {
		return "Insert"
	}
	if fn := fr.opts.Writers[driver]; fn != "" {
		return fn
	}
	if ob := fr.opts.outboxTypes; ob != nil {
		if fn := templates.WriterFuncs[driver]; fn != "" {
			if f, ok := ob.Scope().Lookup(fn).(*types.Func); ok {
				if sig := f.Type().(*types.Signature); sig.Params().Len() >= 2 && types.AssignableTo(txType, sig.Params().At(1).Type()) {
					return fn
				}
			}
		}
	}
	return "Insert"
}

// txFits reports whether a transaction of type txType can be passed to
// outbox.Insert (as is or through an embedded field); true when unknown.
func (fr *fileRewriter) txFits(txType types.Type) bool {
	if fr.insertParam == nil || txType == nil || types.AssignableTo(txType, fr.insertParam) {
		return true
	}
	_, adapted := fr.adaptTx(dst.NewIdent("tx"), txType).(*dst.SelectorExpr)
	return adapted
}

// adaptTx passes the transaction the way outbox.Insert takes it: as is, or
// its embedded field of the parameter's type (sqlx.Tx embeds *sql.Tx).
func (fr *fileRewriter) adaptTx(tx dst.Expr, txType types.Type) dst.Expr {
	if fr.insertParam == nil || txType == nil || types.AssignableTo(txType, fr.insertParam) {
		return tx
	}
	t := txType
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if st, ok := t.Underlying().(*types.Struct); ok {
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if f.Embedded() && types.AssignableTo(f.Type(), fr.insertParam) {
				return &dst.SelectorExpr{X: tx, Sel: dst.NewIdent(f.Name())}
			}
		}
	}
	return tx
}

// ctxExpr is the context for the insert: the function's context parameter
// (or an enclosing function's), the publish's own context variable when it
// is declared outside the removed code, else context.Background().
func (fr *fileRewriter) ctxExpr(u *unit, at ast.Node) dst.Expr {
	for fn := u.fn; fn != nil; fn = fr.enclosingFunc(fn) {
		ft, _ := funcParts(fn)
		for _, f := range ft.Params.List {
			for _, n := range f.Names {
				if n.Name != "_" && isContext(fr.info.TypeOf(n)) && fr.visibleAt(fr.info.Defs[n], at) {
					return dst.NewIdent(n.Name)
				}
			}
		}
	}
	for _, a := range u.call.Args {
		if id, ok := a.(*ast.Ident); ok && isContext(fr.info.TypeOf(id)) {
			obj := fr.info.Uses[id]
			if obj != nil && (obj.Pos() < u.top.Pos() || obj.Pos() >= u.top.End()) && fr.visibleAt(obj, at) {
				return dst.NewIdent(id.Name)
			}
		}
	}
	return &dst.CallExpr{Fun: &dst.Ident{Name: "Background", Path: "context"}}
}

// visibleAt reports whether obj's name resolves to obj at node at.
func (fr *fileRewriter) visibleAt(obj types.Object, at ast.Node) bool {
	if obj == nil {
		return false
	}
	scope := fr.pkg.Types.Scope().Innermost(at.Pos())
	if scope == nil {
		return false
	}
	_, found := scope.LookupParent(obj.Name(), at.Pos())
	return found == obj
}

// zeroResults returns zero values for all results but the last (error).
func (fr *fileRewriter) zeroResults(fn ast.Node) ([]dst.Expr, string) {
	sig := fr.signature(fn)
	var out []dst.Expr
	for i := 0; i < sig.Results().Len()-1; i++ {
		z, ok := fr.zero(sig.Results().At(i).Type())
		if !ok {
			return nil, "no zero value can be written for result type " + sig.Results().At(i).Type().String()
		}
		out = append(out, z)
	}
	return out, ""
}

func (fr *fileRewriter) zero(t types.Type) (dst.Expr, bool) {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return dst.NewIdent("false"), true
		case u.Info()&types.IsString != 0:
			return strLit(""), true
		case u.Info()&types.IsNumeric != 0:
			return &dst.BasicLit{Kind: token.INT, Value: "0"}, true
		case u.Kind() == types.UnsafePointer:
			return dst.NewIdent("nil"), true
		}
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return dst.NewIdent("nil"), true
	case *types.Struct, *types.Array:
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.TypeArgs().Len() > 0 {
			return nil, false
		}
		obj := n.Obj()
		id := &dst.Ident{Name: obj.Name()}
		if obj.Pkg() != nil && obj.Pkg() != fr.pkg.Types {
			id.Path = obj.Pkg().Path()
		}
		return &dst.CompositeLit{Type: id}, true
	}
	return nil, false
}

// ---- strategy 1: an existing transaction ----

// planInPlace replaces the publish where it is (it already runs inside the
// transaction, before it commits).
func (fr *fileRewriter) planInPlace(u *unit, tx *ast.Ident, txObj types.Object) (*plan, string, string) {
	if u.ret != nil {
		return nil, "the publish's error is returned before the transaction commits", ""
	}
	var txType types.Type
	if obj := fr.info.ObjectOf(tx); obj != nil {
		txType = obj.Type()
	} else if txObj != nil {
		txType = txObj.Type()
	}
	stmts, calls, why := fr.insertStmts(u, u.top, dst.NewIdent(tx.Name), txType)
	if why != "" {
		return nil, why, ""
	}
	top := fr.ds(u.top)
	removable := fr.removableOutside(u)
	extras := fr.dstStmts(u.extras)
	return &plan{strategy: StrategyInTx, inserts: calls, apply: func() {
		fr.replace(top, stmts...)
		for _, e := range extras {
			fr.remove(e)
		}
		for _, r := range removable {
			fr.remove(r)
		}
	}}, "", ""
}

func (fr *fileRewriter) dstStmts(l []ast.Stmt) []dst.Stmt {
	var out []dst.Stmt
	for _, s := range l {
		out = append(out, fr.ds(s))
	}
	return out
}

// removableOutside returns the message-building statements to delete that
// are not inside the replaced code already.
func (fr *fileRewriter) removableOutside(u *unit) []dst.Stmt {
	var out []dst.Stmt
	for _, s := range u.x.removable {
		if s.Pos() >= u.top.Pos() && s.End() <= u.top.End() {
			continue
		}
		out = append(out, fr.ds(s))
	}
	return out
}

// planCommitted handles a transaction variable committed in the function:
// a publish before Commit is replaced in place; after Commit, the insert
// (with the statements computing its values) moves to just before Commit.
func (fr *fileRewriter) planCommitted(u *unit, txObj types.Object, commit *ast.CallExpr) (*plan, string, string) {
	if commit == nil {
		return nil, "the transaction is committed in more than one place", ""
	}
	txID := ast.NewIdent(txObj.Name())
	if u.top.Pos() < commit.Pos() {
		if fr.enclosingFunc(commit) != u.fn {
			return nil, "the commit is in another function than the publish", ""
		}
		return fr.planInPlace(u, txID, txObj)
	}
	block := fr.commonBlock(commit, u.top)
	if block == nil {
		return nil, "the publish and the commit are not in one block", ""
	}
	commitStmt := fr.childIn(block, commit)
	moved := fr.childIn(block, u.top)
	if commitStmt == nil || moved == nil || commitStmt == moved {
		return nil, "the publish and the commit share a statement", ""
	}
	// Statements between Commit and the publish that compute local values
	// the message needs move along; a database access among them is a
	// re-read (it would see committed state, not what this transaction wrote).
	_, fnBody := funcParts(u.fn)
	local := func(objs map[types.Object]bool) map[types.Object]bool {
		out := map[types.Object]bool{}
		for o := range objs {
			if v, ok := o.(*types.Var); ok && !v.IsField() && o.Pos() >= fnBody.Pos() && o.Pos() < fnBody.End() {
				out[o] = true
			}
		}
		return out
	}
	needed := local(fr.identsIn(moved, u.top))
	for _, e := range u.x.deps {
		for o := range local(fr.identsIn(e, nil)) {
			needed[o] = true
		}
	}
	list := stmtList(block)
	ci, mi := slices.Index(list, commitStmt), slices.Index(list, moved)
	carried := map[int]bool{}
	for i := mi - 1; i > ci; i-- {
		s := list[i]
		if slices.Contains(u.x.removable, s) || !fr.refersAny(s, needed) {
			continue
		}
		if fr.touchesDB(s, txObj) {
			return nil, "the payload is read back from the database after Commit (a re-read); build it from the values the transaction wrote", ""
		}
		if fr.isPlainErrCheck(s) {
			continue // goes with the statement it checks, below
		}
		if hasControl(s) {
			return nil, "a statement computing the payload after Commit can return or branch; moving it before Commit would change the flow", ""
		}
		carried[i] = true
		for o := range local(fr.identsIn(s, nil)) {
			needed[o] = true
		}
		ast.Inspect(s, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if o := fr.info.Defs[id]; o != nil {
					needed[o] = true
				}
			}
			return true
		})
	}
	// The error check right after a carried statement goes with it (a
	// failed json.Marshal now aborts the transaction instead of following it).
	var carry []ast.Stmt
	for i := ci + 1; i < mi; i++ {
		if !carried[i] {
			continue
		}
		carry = append(carry, list[i])
		if i+1 < mi && !carried[i+1] && fr.checksDefinedBy(list[i+1], list[i]) {
			carry = append(carry, list[i+1])
		}
	}
	if u.ret != nil && u.top != moved {
		return nil, "the publish's error is returned from a nested statement", ""
	}
	stmts, calls, why := fr.insertStmts(u, commitStmt, dst.NewIdent(txObj.Name()), txObj.Type())
	if why != "" {
		return nil, why, ""
	}
	dCommit, dTop, dMoved := fr.ds(commitStmt), fr.ds(u.top), fr.ds(moved)
	dCarry := fr.dstStmts(carry)
	extras := fr.dstStmts(u.extras)
	removable := fr.removableOutside(u)
	var dRet *dst.ReturnStmt
	var retIdx int
	if u.ret != nil {
		dRet = fr.ds(u.ret).(*dst.ReturnStmt)
		retIdx = len(u.ret.Results) - 1
	}
	return &plan{strategy: StrategyInTx, inserts: calls, apply: func() {
		for _, c := range dCarry {
			fr.remove(c)
		}
		for _, e := range extras {
			fr.remove(e)
		}
		for _, r := range removable {
			fr.remove(r)
		}
		switch {
		case dRet != nil:
			// return publish(...) after Commit: the error slot becomes nil.
			dRet.Results[retIdx] = dst.NewIdent("nil")
			fr.insert(dCommit, false, append(dCarry, stmts...)...)
		case dTop == dMoved:
			fr.remove(dTop)
			fr.insert(dCommit, false, append(dCarry, stmts...)...)
		default:
			fr.replace(dTop, stmts...)
			fr.remove(dMoved)
			fr.insert(dCommit, false, append(dCarry, dMoved)...)
		}
	}}, "", ""
}

// planGormAfter moves a publish that follows db.Transaction(func(tx) error {...})
// into the callback, before its final return nil.
func (fr *fileRewriter) planGormAfter(u *unit, call *ast.CallExpr) (*plan, string, string) {
	lit := call.Args[0].(*ast.FuncLit)
	txID := fr.gormCallback(lit)
	if txID == nil || u.top.Pos() < call.End() {
		return nil, "the publish is not after the gorm transaction", ""
	}
	last := len(lit.Body.List) - 1
	if last < 0 {
		return nil, "the gorm transaction callback is empty", ""
	}
	ret, ok := lit.Body.List[last].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 || !isNil(ret.Results[0]) {
		return nil, "the gorm transaction callback does not end in return nil", ""
	}
	block := fr.commonBlock(call, u.top)
	txStmt := fr.childIn(block, call)
	if block == nil || txStmt == nil || fr.childIn(block, u.top) != u.top {
		return nil, "the publish and the gorm transaction are not in one block", ""
	}
	needed := map[types.Object]bool{}
	for _, e := range u.x.deps {
		for o := range fr.identsIn(e, nil) {
			needed[o] = true
		}
	}
	list := stmtList(block)
	for _, s := range list[slices.Index(list, txStmt)+1 : slices.Index(list, u.top)] {
		if !slices.Contains(u.x.removable, s) && fr.definesAny(s, needed) {
			return nil, "the payload is computed after the gorm transaction; compute it inside the callback and insert the outbox row there", ""
		}
	}
	cbUnit := *u
	cbUnit.fn = lit
	stmts, calls, why := fr.insertStmts(&cbUnit, ret, dst.NewIdent(txID.Name), fr.info.TypeOf(txID))
	if why != "" {
		return nil, why, ""
	}
	dTop, dRet := fr.ds(u.top), fr.ds(ret)
	extras := fr.dstStmts(u.extras)
	removable := fr.removableOutside(u)
	return &plan{strategy: StrategyInTx, inserts: calls, apply: func() {
		fr.remove(dTop)
		for _, e := range extras {
			fr.remove(e)
		}
		for _, r := range removable {
			fr.remove(r)
		}
		fr.insert(dRet, false, stmts...)
	}}, "", ""
}

// refersAny reports whether s uses or declares one of objs.
func (fr *fileRewriter) refersAny(s ast.Stmt, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && (objs[fr.info.Uses[id]] || objs[fr.info.Defs[id]]) {
			found = true
		}
		return !found
	})
	return found
}

// isPlainErrCheck reports whether s is `if v != nil { return ... }`.
func (fr *fileRewriter) isPlainErrCheck(s ast.Stmt) bool {
	is, ok := s.(*ast.IfStmt)
	if !ok || is.Init != nil || is.Else != nil {
		return false
	}
	b, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	return ok && b.Op == token.NEQ && isNil(b.Y) && isErrorType(fr.info.TypeOf(b.X))
}

// checksDefinedBy reports whether next is `if v != nil { ... }` on a
// variable that s declares or assigns.
func (fr *fileRewriter) checksDefinedBy(next, s ast.Stmt) bool {
	is, ok := next.(*ast.IfStmt)
	if !ok || is.Init != nil || is.Else != nil {
		return false
	}
	b, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.NEQ || !isNil(b.Y) {
		return false
	}
	id, ok := b.X.(*ast.Ident)
	if !ok {
		return false
	}
	obj := fr.info.Uses[id]
	as, ok := s.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, l := range as.Lhs {
		if li, ok := l.(*ast.Ident); ok && fr.info.ObjectOf(li) == obj {
			return true
		}
	}
	return false
}

func isNil(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "nil"
}

// ---- strategy 2: no transaction ----

// handleWrite is a write call on a database handle.
type handleWrite struct {
	call *ast.CallExpr
	sel  *ast.SelectorExpr
}

// planOpen opens a transaction on the write's handle, moves the writes on
// that handle onto it, inserts the outbox row and commits.
func (fr *fileRewriter) planOpen(u *unit, writeCall *ast.CallExpr) (*plan, string, string) {
	sel, ok := ast.Unparen(writeCall.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, "the DB write is not a method call on a handle", ""
	}
	client := txClientOf(fr.info.TypeOf(sel.X), false)
	if client == nil {
		return nil, "the write's handle (" + types.ExprString(sel.X) + ") is not a database/sql, pgx, sqlx or gorm handle that can begin a transaction", adviceCallee
	}
	if client.name == "gorm" {
		return fr.planGormOpen(u, sel)
	}
	if fr.enclosingFunc(writeCall) != u.fn {
		return nil, "the write and the publish are in different functions", adviceCallee
	}
	handle := types.ExprString(sel.X)
	if !stableExpr(sel.X) {
		return nil, "the write's handle is computed (" + handle + "); open a transaction on it by hand", ""
	}
	_, body := funcParts(u.fn)
	var writes []handleWrite
	other, unmovable := "", ""
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		s, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		c := txClientOf(fr.info.TypeOf(s.X), false)
		if c == nil {
			return true
		}
		write, movable := catalogWrite(fr.info, c, call, s)
		if !write {
			return true
		}
		if !movable && unmovable == "" {
			unmovable = types.ExprString(call.Fun)
		}
		if types.ExprString(s.X) != handle {
			other = types.ExprString(s.X)
			return true
		}
		writes = append(writes, handleWrite{call, s})
		return true
	})
	if other != "" {
		return nil, "the function writes through several handles (" + handle + ", " + other + "); one transaction cannot span them", ""
	}
	if unmovable != "" {
		return nil, "the write " + unmovable + " has no method of the same signature on the transaction; open the transaction and make that write on it by hand", ""
	}
	nodes := []ast.Node{u.top}
	for _, w := range writes {
		nodes = append(nodes, w.call)
	}
	block := fr.commonBlock(nodes...)
	if block == nil {
		return nil, "the writes and the publish are not in one block", ""
	}
	list := stmtList(block)
	first, last := len(list), -1
	for _, n := range nodes[1:] {
		i := slices.Index(list, fr.childIn(block, n))
		first, last = min(first, i), max(last, i)
	}
	pubAt := slices.Index(list, fr.childIn(block, u.top))
	before := pubAt < first // OBX004: publish before the write
	if before && list[pubAt] != u.top {
		return nil, "the publish comes before the write inside a nested statement; move it after the write by hand", ""
	}
	start, end := min(first, pubAt), max(last, pubAt)
	// A successful return between begin and commit would skip the commit.
	for _, s := range list[start : end+1] {
		if fr.successReturn(s) {
			return nil, "a successful return between the writes and the publish would skip the new transaction's commit", ""
		}
	}
	// Every moved write's error must stop the transaction before the
	// outbox row is inserted; add the missing checks, refuse ignored errors.
	var needCheck []ast.Stmt
	for _, w := range writes {
		st := fr.enclosingStmt(w.call)
		switch st := st.(type) {
		case *ast.IfStmt:
			if as, ok := st.Init.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && ast.Unparen(as.Rhs[0]) == w.call {
				continue // if _, err := db.Exec(...); err != nil {...}
			}
		case *ast.AssignStmt:
			if len(st.Rhs) != 1 || ast.Unparen(st.Rhs[0]) != w.call {
				break
			}
			errID, ok := st.Lhs[len(st.Lhs)-1].(*ast.Ident)
			if !ok || errID.Name == "_" || !isErrorType(fr.info.TypeOf(errID)) {
				break
			}
			if next := fr.nextStmt(st); next != nil && fr.checksDefinedBy(next, st) {
				continue
			}
			if errID.Name != "err" {
				break
			}
			needCheck = append(needCheck, st)
			continue
		}
		{
			return nil, "the error of the write at line " + strconvItoa(fr.pkg.Fset.Position(w.call.Pos()).Line) + " is not checked, so the outbox row could commit without it", ""
		}
	}
	txName := fr.freshName(u.fn, "tx", "dbTx", "outboxTx")
	if txName == "" {
		return nil, "no free name for the transaction variable", ""
	}
	fr.usedNames[fnKey(u.fn)+txName] = true
	zeros, why := fr.zeroResults(u.fn)
	if why != "" {
		return nil, why, ""
	}
	ctxAt := list[start]
	// begin
	var beginArgs []dst.Expr
	if client.beginCtx {
		beginArgs = append(beginArgs, fr.ctxExpr(u, ctxAt))
	}
	if client.beginOpts {
		beginArgs = append(beginArgs, dst.NewIdent("nil"))
	}
	beginTok := token.DEFINE
	begin := &dst.AssignStmt{
		Lhs: []dst.Expr{dst.NewIdent(txName), dst.NewIdent("err")},
		Tok: beginTok,
		Rhs: []dst.Expr{&dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.Clone(fr.d(sel.X)).(dst.Expr), Sel: dst.NewIdent(client.begin)}, Args: beginArgs}},
	}
	beginCheck := &dst.IfStmt{
		Cond: &dst.BinaryExpr{X: dst.NewIdent("err"), Op: token.NEQ, Y: dst.NewIdent("nil")},
		Body: &dst.BlockStmt{List: []dst.Stmt{&dst.ReturnStmt{Results: append(cloneAll(zeros), dst.NewIdent("err"))}}},
	}
	var rbArgs []dst.Expr
	if client.rollbackCtx {
		rbArgs = append(rbArgs, fr.ctxExpr(u, ctxAt))
	}
	rollback := &dst.DeferStmt{Call: &dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(txName), Sel: dst.NewIdent("Rollback")}, Args: rbArgs}}
	var cmArgs []dst.Expr
	if client.rollbackCtx {
		cmArgs = append(cmArgs, fr.ctxExpr(u, ctxAt))
	}
	commit := errCheck(&dst.CallExpr{Fun: &dst.SelectorExpr{X: dst.NewIdent(txName), Sel: dst.NewIdent("Commit")}}, zeros)
	commit.Init.(*dst.AssignStmt).Rhs[0].(*dst.CallExpr).Args = cmArgs
	txType := fr.txTypeOf(client)
	stmts, calls, why := fr.insertStmts(u, ctxAt, dst.NewIdent(txName), txType)
	if why != "" {
		return nil, why, ""
	}
	// `err :=` later in the block would no longer declare anything new.
	var redeclare []*dst.AssignStmt
	for _, s := range list[start:] {
		as, ok := s.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			continue
		}
		newNames := 0
		onlyErr := true
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && id.Name != "_" && fr.info.Defs[id] != nil {
				newNames++
				onlyErr = onlyErr && id.Name == "err"
			}
		}
		if newNames == 1 && onlyErr {
			redeclare = append(redeclare, fr.ds(as).(*dst.AssignStmt))
		}
	}
	errDeclared := false
	for _, s := range list[:start] {
		ast.Inspect(s, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.DEFINE && fr.parent[as] == block {
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == "err" && fr.info.Defs[id] != nil {
						errDeclared = true
					}
				}
			}
			return true
		})
	}
	_ = errDeclared
	dStart, dEnd, dTop := fr.ds(list[start]), fr.ds(list[end]), fr.ds(u.top)
	var dSels []*dst.SelectorExpr
	for _, w := range writes {
		dSels = append(dSels, fr.d(w.sel).(*dst.SelectorExpr))
	}
	extras := fr.dstStmts(u.extras)
	removable := fr.removableOutside(u)
	topIsEnd := list[end] == u.top
	dNeedCheck := fr.dstStmts(needCheck)
	if u.ret != nil && (!topIsEnd || before) {
		return nil, "the publish's error is returned before the last write", ""
	}
	var dRet *dst.ReturnStmt
	if u.ret != nil {
		dRet = fr.ds(u.ret).(*dst.ReturnStmt)
	}
	return &plan{strategy: StrategyOpenTx, inserts: calls, apply: func() {
		for _, s := range dSels {
			s.X = dst.NewIdent(txName)
		}
		for _, a := range redeclare {
			a.Tok = token.ASSIGN
		}
		for _, e := range extras {
			fr.remove(e)
		}
		for _, r := range removable {
			fr.remove(r)
		}
		anchorStart := dStart
		switch {
		case before:
			// publish before the write: the insert goes after the last write.
			if dStart == dTop {
				anchorStart = fr.ds(list[first])
			}
			fr.remove(dTop)
			fr.insert(dEnd, true, append(stmts, commit)...)
		case dRet != nil:
			// return publish(...): insert and commit first, then return nil.
			dRet.Results[len(dRet.Results)-1] = dst.NewIdent("nil")
			fr.insert(dTop, false, append(stmts, commit)...)
		case topIsEnd:
			fr.replace(dTop, append(stmts, commit)...)
		default:
			fr.replace(dTop, stmts...)
			fr.insert(dEnd, true, commit)
		}
		fr.insert(anchorStart, false, begin, beginCheck, rollback)
		for _, w := range dNeedCheck {
			check := &dst.IfStmt{
				Cond: &dst.BinaryExpr{X: dst.NewIdent("err"), Op: token.NEQ, Y: dst.NewIdent("nil")},
				Body: &dst.BlockStmt{List: []dst.Stmt{&dst.ReturnStmt{Results: append(cloneAll(zeros), dst.NewIdent("err"))}}},
			}
			fr.insert(w, true, check)
		}
	}}, "", ""
}

func strconvItoa(i int) string { return strconv.Itoa(i) }

func cloneAll(l []dst.Expr) []dst.Expr {
	var out []dst.Expr
	for _, e := range l {
		out = append(out, dst.Clone(e).(dst.Expr))
	}
	return out
}

// stableExpr reports whether e names the same handle every time it is
// evaluated (an identifier or a field path).
func stableExpr(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return stableExpr(e.X)
	}
	return false
}

func (fr *fileRewriter) successReturn(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		if r, ok := n.(*ast.ReturnStmt); ok {
			if len(r.Results) == 0 || isNil(r.Results[len(r.Results)-1]) {
				found = true
			}
		}
		return !found
	})
	return found
}

// txTypeOf finds the transaction type of a client among the loaded packages.
func (fr *fileRewriter) txTypeOf(c *txClient) types.Type {
	var out types.Type
	for _, ip := range fr.pkg.Imports {
		if ip.Types == nil {
			continue
		}
		for _, tt := range c.txTypes {
			name := strings.TrimPrefix(tt, "*")
			i := strings.LastIndex(name, ".")
			if name[:i] != ip.PkgPath {
				continue
			}
			if obj := ip.Types.Scope().Lookup(name[i+1:]); obj != nil {
				out = obj.Type()
				if strings.HasPrefix(tt, "*") {
					out = types.NewPointer(out)
				}
			}
		}
	}
	return out
}

// gormRoot returns the handle a gorm chain starts from
// (s.db.WithContext(ctx).Model(x) -> s.db).
func (fr *fileRewriter) gormRoot(e ast.Expr) ast.Expr {
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return ast.Unparen(e)
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || txClientOf(fr.info.TypeOf(sel.X), false) == nil {
			return ast.Unparen(e)
		}
		e = sel.X
	}
}

// planGormOpen wraps the writes and the insert in
// db.Transaction(func(tx *gorm.DB) error {...}): the statements from the
// first write to the publish move into the callback, their writes start from
// tx, their error returns become the callback's.
func (fr *fileRewriter) planGormOpen(u *unit, sel *ast.SelectorExpr) (*plan, string, string) {
	root := fr.gormRoot(sel.X)
	if !stableExpr(root) {
		return nil, "the gorm handle is computed (" + types.ExprString(root) + "); open a transaction on it by hand", ""
	}
	handle := types.ExprString(root)
	_, body := funcParts(u.fn)
	var roots []ast.Expr
	var writeCalls []ast.Node
	other := ""
	ast.Inspect(body, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		s, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		c := txClientOf(fr.info.TypeOf(s.X), false)
		if c == nil {
			return true
		}
		if write, _ := catalogWrite(fr.info, c, call, s); !write {
			return true
		}
		r := fr.gormRoot(s.X)
		if c.name != "gorm" || types.ExprString(r) != handle {
			other = types.ExprString(r)
			return true
		}
		roots = append(roots, r)
		writeCalls = append(writeCalls, call)
		return true
	})
	if other != "" {
		return nil, "the function writes through several handles (" + handle + ", " + other + "); one transaction cannot span them", ""
	}
	block := fr.commonBlock(append([]ast.Node{u.top}, writeCalls...)...)
	if block == nil {
		return nil, "the writes and the publish are not in one block", ""
	}
	list := stmtList(block)
	first, last := len(list), -1
	for _, n := range writeCalls {
		i := slices.Index(list, fr.childIn(block, n))
		first, last = min(first, i), max(last, i)
	}
	pubAt := slices.Index(list, fr.childIn(block, u.top))
	if pubAt < first && list[pubAt] != u.top {
		return nil, "the publish comes before the write inside a nested statement; move it after the write by hand", ""
	}
	start, end := min(first, pubAt), max(last, pubAt)
	span := list[start : end+1]
	for _, st := range span {
		if fr.successReturn(st) {
			return nil, "a successful return between the writes and the publish would skip the new transaction's commit", ""
		}
	}
	// Variables declared by the moved statements must not be used after them.
	declared := map[types.Object]bool{}
	for _, st := range span {
		if st == u.top {
			continue // the publish goes away with its results
		}
		switch st := st.(type) {
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				for _, l := range st.Lhs {
					if id, ok := l.(*ast.Ident); ok && fr.info.Defs[id] != nil {
						declared[fr.info.Defs[id]] = true
					}
				}
			}
		case *ast.DeclStmt:
			ast.Inspect(st, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && fr.info.Defs[id] != nil {
					declared[fr.info.Defs[id]] = true
				}
				return true
			})
		}
	}
	for _, st := range list[end+1:] {
		if slices.Contains(u.extras, st) || slices.Contains(u.x.removable, st) {
			continue
		}
		if fr.refersAny(st, declared) {
			return nil, "a variable set between the writes and the publish is used after them; wrap them in db.Transaction by hand", ""
		}
	}
	// Branches out of the moved statements cannot cross the callback.
	crossing := false
	for _, st := range span {
		ast.Inspect(st, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				return false
			case *ast.BranchStmt:
				if n.Tok != token.FALLTHROUGH {
					crossing = true
				}
			}
			return true
		})
	}
	if crossing {
		return nil, "a break, continue or goto leaves the statements that would move into db.Transaction", ""
	}
	txName := fr.freshName(u.fn, "tx", "dbTx", "outboxTx")
	if txName == "" {
		return nil, "no free name for the transaction variable", ""
	}
	fr.usedNames[fnKey(u.fn)+txName] = true
	zeros, why := fr.zeroResults(u.fn)
	if why != "" {
		return nil, why, ""
	}
	var txType types.Type
	if root := fr.info.TypeOf(root); root != nil {
		txType = root
	}
	cbUnit := *u
	stmts, calls, why := fr.insertStmts(&cbUnit, list[start], dst.NewIdent(txName), txType)
	if why != "" {
		return nil, why, ""
	}
	// The inserts' error checks return only the error inside the callback.
	for _, st := range stmts {
		st.(*dst.IfStmt).Body.List[0].(*dst.ReturnStmt).Results = []dst.Expr{dst.NewIdent("err")}
	}
	// returns inside the moved statements become the callback's
	var rets []*dst.ReturnStmt
	for _, st := range span {
		ast.Inspect(st, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if r, ok := n.(*ast.ReturnStmt); ok && len(r.Results) > 0 {
				rets = append(rets, fr.ds(r).(*dst.ReturnStmt))
			}
			return true
		})
	}
	dSpan := fr.dstStmts(span)
	var dRoots []dst.Node
	for _, r := range roots {
		dRoots = append(dRoots, fr.d(r))
	}
	dTop := fr.ds(u.top)
	extras := fr.dstStmts(u.extras)
	removable := fr.removableOutside(u)
	before := pubAt < first
	isRet := u.ret != nil
	var dRet *dst.ReturnStmt
	if isRet {
		if list[end] != u.top || before {
			return nil, "the publish's error is returned before the last write", ""
		}
		dRet = fr.ds(u.ret).(*dst.ReturnStmt)
	}
	handleExpr := dst.Clone(fr.d(root)).(dst.Expr)
	return &plan{strategy: StrategyOpenTx, inserts: calls, apply: func() {
		// re-root the writes on tx (in place, inside the moved statements)
		for _, r := range dRoots {
			replaceExpr(fr.df, r, dst.NewIdent(txName))
		}
		for _, r := range rets {
			r.Results = []dst.Expr{r.Results[len(r.Results)-1]}
		}
		for _, e := range extras {
			fr.remove(e)
		}
		for _, r := range removable {
			fr.remove(r)
		}
		var inner []dst.Stmt
		for _, st := range dSpan {
			switch {
			case st == dTop && (before || isRet):
				// goes after the writes (before) or stays outside (return)
			case st == dTop:
				inner = append(inner, stmts...)
			default:
				inner = append(inner, st)
			}
		}
		if dTop != nil && !slices.Contains(dSpan, dTop) {
			fr.replace(dTop, stmts...) // nested publish: replaced in place
		}
		if before || isRet {
			inner = append(inner, stmts...)
		}
		inner = append(inner, &dst.ReturnStmt{Results: []dst.Expr{dst.NewIdent("nil")}})
		for _, st := range inner {
			st.Decorations().Before = dst.NewLine
			st.Decorations().After = dst.NewLine
		}
		lit := &dst.FuncLit{
			Type: &dst.FuncType{
				Params: &dst.FieldList{List: []*dst.Field{{
					Names: []*dst.Ident{dst.NewIdent(txName)},
					Type:  &dst.StarExpr{X: &dst.Ident{Name: "DB", Path: "gorm.io/gorm"}},
				}}},
				Results: &dst.FieldList{List: []*dst.Field{{Type: dst.NewIdent("error")}}},
			},
			Body: &dst.BlockStmt{List: inner},
		}
		wrap := errCheck(&dst.CallExpr{Fun: &dst.SelectorExpr{X: handleExpr, Sel: dst.NewIdent("Transaction")}, Args: []dst.Expr{lit}}, zeros)
		fr.insert(dSpan[0], false, wrap)
		for _, st := range dSpan {
			if st == dTop && isRet {
				continue
			}
			fr.remove(st)
		}
		if isRet {
			dRet.Results[len(dRet.Results)-1] = dst.NewIdent("nil")
		}
	}}, "", ""
}

// replaceExpr swaps the expression old for new wherever it appears under root.
func replaceExpr(root dst.Node, old dst.Node, repl dst.Expr) {
	dst.Inspect(root, func(n dst.Node) bool {
		switch n := n.(type) {
		case *dst.SelectorExpr:
			if n.X == old {
				n.X = repl
				return false
			}
		case *dst.CallExpr:
			for i, a := range n.Args {
				if a == old {
					n.Args[i] = repl
				}
			}
		}
		return true
	})
}
