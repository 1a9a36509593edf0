package rewrite

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"github.com/dave/dst"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// ownTx is a transaction the code begins itself on the write's path
// (db.Begin or db.BeginTx on a *sql.DB, in the meeting function or in a
// repository it calls), with the write made on it (tx.ExecContext, or
// sqlc's Queries bound by WithTx(tx) or New(tx)). Such a transaction
// joins the unit of work instead of a handle being wrapped: its begin
// becomes outbox.BeginSQL (the unit's transaction, a savepoint inside it)
// and its Commit and Rollback become outbox.CommitSQL and RollbackSQL (the
// savepoint's end; the unit commits at the end of Run, with its outbox
// rows). This covers a publish made after the code's own Commit (the
// commit moves to the end of the unit) as well as one made before it, and
// keeps a transaction's rollback to its own part of the unit.
type ownTx struct {
	owner funcDecl
	ctx   string          // the owner's context parameter
	calls []*ast.CallExpr // Begin/BeginTx, Commit, Rollback calls to replace
	// siblings are the other implementations of the interface method the
	// write's chain goes through, joined the same way
	siblings []*ownTx
}

const (
	sqlBegin    = "(*database/sql.DB).Begin"
	sqlBeginTx  = "(*database/sql.DB).BeginTx"
	sqlCommit   = "(*database/sql.Tx).Commit"
	sqlRollback = "(*database/sql.Tx).Rollback"
)

// findOwnTx looks, along the write's call chain from the meeting function,
// for a function that begins a *sql.Tx and reaches the write through it.
// found is false when no function does (the handle rewrite applies); why
// says why a transaction that is there cannot join the unit.
func (s *unitSession) findOwnTx(meet funcDecl, f dualwrite.Finding) (ot *ownTx, found bool, why string) {
	chain := []string{f.Func}
	chain = append(chain, f.Write.Via...)
	for i, name := range chain {
		d, ok := s.decls[name]
		if !ok {
			continue
		}
		if i == 0 {
			d = meet
		}
		next := f.Write.Name
		if i+1 < len(chain) {
			next = chain[i+1]
		}
		info := d.pkg.TypesInfo
		// the transactions this function begins: the variable each goes to
		begins := map[types.Object][]*ast.CallExpr{}
		ast.Inspect(d.decl.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || len(as.Lhs) != 2 {
				return true
			}
			c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isCallTo(info, c, sqlBegin, sqlBeginTx) {
				return true
			}
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
				if obj := objOf(info, id); obj != nil {
					begins[obj] = append(begins[obj], c)
				}
			}
			return true
		})
		if len(begins) == 0 {
			continue
		}
		// the call to the next hop must go through one of them
		var via types.Object
		ast.Inspect(d.decl.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || via != nil {
				return via == nil
			}
			fn, ok := typeutil.Callee(info, c).(*types.Func)
			if !ok || fn.FullName() != next {
				return true
			}
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
				via = txBehind(info, d.decl.Body, sel.X, begins)
			}
			return true
		})
		if via == nil {
			continue
		}
		ctx := ctxParam(info, d.decl.Type)
		if ctx == "" {
			return nil, true, "the function " + shortName(d.fn.FullName()) + " begins its own transaction but has no context.Context parameter to join the unit of work"
		}
		if hasGoStmt(d.decl.Body) {
			return nil, true, "the function " + shortName(d.fn.FullName()) + " begins its own transaction and starts a goroutine: its work would leave the unit of work"
		}
		ot := &ownTx{owner: d, ctx: ctx}
		if why := ot.collect(begins); why != "" {
			return nil, true, why
		}
		// The other implementations of the interface the chain went
		// through are joined too, or named: one left behind would commit
		// on its own inside the unit's caller.
		if i > 0 {
			if _, isDecl := s.decls[chain[i-1]]; !isDecl {
				why := s.siblings(meet, chain[i-1], ot)
				if why != "" {
					return nil, true, why
				}
			}
		}
		return ot, true, ""
	}
	return nil, false, ""
}

// collect adds the begun transactions' calls, or says why one cannot join.
func (ot *ownTx) collect(begins map[types.Object][]*ast.CallExpr) string {
	for obj, bs := range begins {
		ot.calls = append(ot.calls, bs...)
		ends, why := txEnds(ot.owner, obj, bs)
		if why != "" {
			return why
		}
		ot.calls = append(ot.calls, ends...)
	}
	return ""
}

// siblings joins the other implementations of the interface method iface
// (as the chain names it) that begin their own transaction, and names one
// that does not.
func (s *unitSession) siblings(meet funcDecl, iface string, ot *ownTx) string {
	var it *types.Interface
	var method string
	ast.Inspect(meet.decl.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && it == nil {
			if fn, ok := typeutil.Callee(meet.pkg.TypesInfo, c).(*types.Func); ok && fn.FullName() == iface && fn.Signature().Recv() != nil {
				it, _ = fn.Signature().Recv().Type().Underlying().(*types.Interface)
				method = fn.Name()
			}
		}
		return it == nil
	})
	if it == nil {
		return ""
	}
	var names []string
	for name := range s.decls {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		d := s.decls[name]
		recv := d.fn.Signature().Recv()
		if d.decl == ot.owner.decl || recv == nil || d.fn.Name() != method || strings.HasSuffix(d.pkg.Fset.File(d.file.FileStart).Name(), "_test.go") {
			continue
		}
		t := recv.Type()
		if !types.Implements(t, it) {
			if _, isPtr := t.(*types.Pointer); isPtr || !types.Implements(types.NewPointer(t), it) {
				continue
			}
		}
		info := d.pkg.TypesInfo
		begins := map[types.Object][]*ast.CallExpr{}
		ast.Inspect(d.decl.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 && len(as.Lhs) == 2 {
				if c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && isCallTo(info, c, sqlBegin, sqlBeginTx) {
					if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
						if obj := objOf(info, id); obj != nil {
							begins[obj] = append(begins[obj], c)
						}
					}
				}
			}
			return true
		})
		if len(begins) == 0 {
			return "the interface method " + shortName(iface) + " has another implementation, " + shortName(d.fn.FullName()) + ", that begins no transaction of its own: join it to the unit by hand (outbox.SQL(ctx, db)) or fix it and run fix again"
		}
		ctx := ctxParam(info, d.decl.Type)
		if ctx == "" || hasGoStmt(d.decl.Body) {
			return "the interface method " + shortName(iface) + " has another implementation, " + shortName(d.fn.FullName()) + ", whose transaction cannot join the unit (no context.Context parameter, or a goroutine)"
		}
		sib := &ownTx{owner: d, ctx: ctx}
		if why := sib.collect(begins); why != "" {
			return "in " + shortName(d.fn.FullName()) + ", another implementation of " + shortName(iface) + ": " + why
		}
		ot.siblings = append(ot.siblings, sib)
	}
	return ""
}

func isCallTo(info *types.Info, c *ast.CallExpr, names ...string) bool {
	fn, ok := typeutil.Callee(info, c).(*types.Func)
	if !ok {
		return false
	}
	for _, n := range names {
		if fn.FullName() == n {
			return true
		}
	}
	return false
}

func objOf(info *types.Info, id *ast.Ident) types.Object {
	if o := info.Defs[id]; o != nil {
		return o
	}
	return info.Uses[id]
}

// txBehind is the begun transaction an expression stands for: the tx
// variable itself, or a variable assigned from a call taking it
// (querier.WithTx(tx), postgresql.New(tx)).
func txBehind(info *types.Info, body *ast.BlockStmt, e ast.Expr, begins map[types.Object][]*ast.CallExpr) types.Object {
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		// db.New(tx).CreateOrder(...), db.New(r.db).WithTx(tx).CreateOrder(...)
		for _, a := range c.Args {
			if aid, ok := ast.Unparen(a).(*ast.Ident); ok {
				if _, ok := begins[info.Uses[aid]]; ok {
					return info.Uses[aid]
				}
			}
		}
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
			return txBehind(info, body, sel.X, begins)
		}
		return nil
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	obj := info.Uses[id]
	if _, ok := begins[obj]; ok {
		return obj
	}
	var found types.Object
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found != nil || len(as.Lhs) != len(as.Rhs) {
			return found == nil
		}
		for i, l := range as.Lhs {
			lid, ok := l.(*ast.Ident)
			if !ok || objOf(info, lid) != obj {
				continue
			}
			c, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr)
			if !ok {
				continue
			}
			for _, a := range c.Args {
				if aid, ok := ast.Unparen(a).(*ast.Ident); ok {
					if _, ok := begins[info.Uses[aid]]; ok {
						found = info.Uses[aid]
					}
				}
			}
		}
		return found == nil
	})
	return found
}

// txEnds returns the Commit and Rollback calls on a begun transaction, or
// why it cannot join the unit: every use must be a method call on it or
// an argument to WithTx/New (sqlc), so that fix sees where it ends.
func txEnds(owner funcDecl, tx types.Object, begins []*ast.CallExpr) ([]*ast.CallExpr, string) {
	info, body := owner.pkg.TypesInfo, owner.decl.Body
	ok := map[*ast.Ident]bool{}
	var ends []*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if len(x.Rhs) == 1 && containsCall(begins, ast.Unparen(x.Rhs[0])) {
				if id, isID := x.Lhs[0].(*ast.Ident); isID {
					ok[id] = true
				}
			}
		case *ast.CallExpr:
			if sel, isSel := ast.Unparen(x.Fun).(*ast.SelectorExpr); isSel {
				if id, isID := ast.Unparen(sel.X).(*ast.Ident); isID && info.Uses[id] == tx {
					ok[id] = true
					if isCallTo(info, x, sqlCommit, sqlRollback) {
						ends = append(ends, x)
					}
				}
			}
			if fn, isFn := typeutil.Callee(info, x).(*types.Func); isFn && (fn.Name() == "WithTx" || fn.Name() == "New") {
				for _, a := range x.Args {
					if id, isID := ast.Unparen(a).(*ast.Ident); isID && info.Uses[id] == tx {
						ok[id] = true
					}
				}
			}
		}
		return true
	})
	why := ""
	ast.Inspect(body, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID && why == "" && objOf(info, id) == tx && !ok[id] {
			why = "the transaction " + tx.Name() + " that " + shortName(owner.fn.FullName()) + " begins is passed on, stored or returned (" + owner.at(id) + "): fix cannot see where it commits"
		}
		return why == ""
	})
	return ends, why
}

// apply replaces the transaction's begin, commit and rollback calls with
// the unit's (once per function).
func (ot *ownTx) apply(s *unitSession) error {
	for _, sib := range ot.siblings {
		if err := sib.apply(s); err != nil {
			return err
		}
	}
	if s.done[ot.owner.decl] {
		return nil
	}
	uf, err := s.fileOf(ot.owner)
	if err != nil {
		return err
	}
	info := ot.owner.pkg.TypesInfo
	for _, c := range ot.calls {
		dc, ok := uf.dec.Dst.Nodes[c].(*dst.CallExpr)
		if !ok {
			return errManual("the transaction's calls are not in the decorated file")
		}
		dsel, ok := dc.Fun.(*dst.SelectorExpr)
		if !ok {
			return errManual("the transaction's calls are not method calls")
		}
		recv := dst.Clone(dsel.X).(dst.Expr)
		var repl *dst.CallExpr
		switch {
		case isCallTo(info, c, sqlBegin):
			repl = &dst.CallExpr{Fun: &dst.Ident{Name: "BeginSQLDetached", Path: s.opts.OutboxPkg}, Args: []dst.Expr{dst.NewIdent(ot.ctx), recv}}
		case isCallTo(info, c, sqlBeginTx):
			args := []dst.Expr{dst.Clone(dc.Args[0]).(dst.Expr), recv, dst.Clone(dc.Args[1]).(dst.Expr)}
			repl = &dst.CallExpr{Fun: &dst.Ident{Name: "BeginSQL", Path: s.opts.OutboxPkg}, Args: args}
		case isCallTo(info, c, sqlCommit):
			repl = &dst.CallExpr{Fun: &dst.Ident{Name: "CommitSQL", Path: s.opts.OutboxPkg}, Args: []dst.Expr{dst.NewIdent(ot.ctx), recv}}
		case isCallTo(info, c, sqlRollback):
			repl = &dst.CallExpr{Fun: &dst.Ident{Name: "RollbackSQL", Path: s.opts.OutboxPkg}, Args: []dst.Expr{dst.NewIdent(ot.ctx), recv}}
		}
		replaceCall(dc, repl)
	}
	s.done[ot.owner.decl] = true
	return nil
}

// ownTxNote is the per-site behaviour change of a transaction the code
// began itself joining the unit.
const ownTxNote = "the transaction the code begins itself joins the unit: its Commit releases a savepoint and the unit commits at the end of Run (a later error now rolls back what it committed); its Rollback rolls back its own part and the messages enqueued in it"

func containsCall(calls []*ast.CallExpr, e ast.Expr) bool {
	for _, c := range calls {
		if ast.Expr(c) == e {
			return true
		}
	}
	return false
}

// sqlcNew is sqlc's Queries built in the function that calls the write
// (New(db), inline or in a variable), on a handle the unit has an accessor
// for: New's argument becomes outbox.SQL(ctx, db), whose type has the
// methods of sqlc's DBTX, so every query of those Queries joins the unit.
type sqlcNew struct {
	caller funcDecl
	ctx    string
	acc    string
	args   []ast.Expr // New's arguments to wrap
	// fields are the Queries kept in a field (r.q) that the calls go
	// through: each becomes New(outbox.SQL(ctx, r.db)) on the handle the
	// repository holds (holders, in the same order), sqlc's New in newPkg
	fields  []*ast.SelectorExpr
	holders []string
	newPkg  string
}

// findSqlcNew follows the write from the generated Queries method to the
// function calling it; nil and no reason when that is not sqlc's shape.
func (s *unitSession) findSqlcNew(meet funcDecl, f dualwrite.Finding, gen funcDecl) (*sqlcNew, string) {
	chain := append([]string{f.Func}, f.Write.Via...)
	idx := -1
	for i, n := range chain {
		if n == gen.fn.FullName() {
			idx = i
		}
	}
	if idx < 1 {
		return nil, ""
	}
	caller, ok := s.decls[chain[idx-1]]
	if idx-1 == 0 {
		caller, ok = meet, true
	}
	if !ok {
		return nil, ""
	}
	info := caller.pkg.TypesInfo
	sq := &sqlcNew{caller: caller, ctx: ctxParam(info, caller.decl.Type)}
	why := ""
	ast.Inspect(caller.decl.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || why != "" {
			return why == ""
		}
		fn, ok := typeutil.Callee(info, c).(*types.Func)
		if !ok || fn.FullName() != gen.fn.FullName() {
			return true
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		arg := sqlcNewArg(info, caller.decl.Body, sel.X)
		if arg == nil {
			// Queries kept in a field, built from a handle the repository
			// holds too: the call goes through New(outbox.SQL(ctx, r.db))
			if fsel, ok := ast.Unparen(sel.X).(*ast.SelectorExpr); ok {
				if fld, ok := info.Uses[fsel.Sel].(*types.Var); ok && fld.IsField() {
					holder, acc, w := s.sqlcHolder(caller, fsel, fld, gen)
					if w != "" {
						why = w
						return false
					}
					if sq.acc != "" && sq.acc != acc {
						why = "sqlc's Queries in " + shortName(caller.fn.FullName()) + " is built on two kinds of handle"
						return false
					}
					sq.acc = acc
					sq.fields = append(sq.fields, fsel)
					sq.holders = append(sq.holders, holder)
					sq.newPkg = gen.fn.Pkg().Path()
					return true
				}
			}
			why = "sqlc's Queries in " + shortName(caller.fn.FullName()) + " is not built there with New(db): build it with New(outbox.SQL(ctx, db)) in the function, or bind it to the unit's transaction with WithTx"
			return false
		}
		acc := s.accessor(info.TypeOf(arg))
		if acc == "" {
			why = "sqlc's Queries in " + shortName(caller.fn.FullName()) + " is built on " + types.TypeString(info.TypeOf(arg), nil) + ", which has no unit-of-work accessor in the generated writer"
			return false
		}
		if sq.acc != "" && sq.acc != acc {
			why = "sqlc's Queries in " + shortName(caller.fn.FullName()) + " is built on two kinds of handle"
			return false
		}
		sq.acc = acc
		sq.args = append(sq.args, arg)
		return true
	})
	if why != "" {
		return nil, why
	}
	if len(sq.args) == 0 && len(sq.fields) == 0 {
		return nil, ""
	}
	if sq.ctx == "" {
		return nil, "the function " + shortName(caller.fn.FullName()) + " builds sqlc's Queries but has no context.Context parameter to reach the unit of work"
	}
	return sq, ""
}

// sqlcNewArg is db in New(db).Method(...) or in q := New(db); q.Method(...).
func sqlcNewArg(info *types.Info, body *ast.BlockStmt, recv ast.Expr) ast.Expr {
	isNew := func(e ast.Expr) ast.Expr {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return nil
		}
		if fn, ok := typeutil.Callee(info, c).(*types.Func); ok && fn.Name() == "New" && fn.Signature().Recv() == nil {
			return c.Args[0]
		}
		return nil
	}
	if a := isNew(recv); a != nil {
		return a
	}
	id, ok := ast.Unparen(recv).(*ast.Ident)
	if !ok {
		return nil
	}
	obj := info.Uses[id]
	var arg ast.Expr
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		as, ok := x.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if lid, ok := l.(*ast.Ident); ok && objOf(info, lid) == obj {
				n++
				arg = isNew(as.Rhs[i])
			}
		}
		return true
	})
	if n != 1 {
		return nil // assigned more than once (or a parameter, a field): not followed
	}
	return arg
}

func (sq *sqlcNew) apply(s *unitSession) error {
	if s.done[sq.caller.decl] {
		return nil
	}
	uf, err := s.fileOf(sq.caller)
	if err != nil {
		return err
	}
	for _, a := range sq.args {
		da, ok := uf.dec.Dst.Nodes[a].(dst.Expr)
		if !ok {
			return errManual("sqlc's New argument is not in the decorated file")
		}
		call := &dst.CallExpr{Fun: &dst.Ident{Name: sq.acc, Path: s.opts.OutboxPkg}, Args: []dst.Expr{dst.NewIdent(sq.ctx), dst.Clone(da).(dst.Expr)}}
		replaceExpr(uf.df, da, call)
	}
	for i, fsel := range sq.fields {
		df, ok := uf.dec.Dst.Nodes[fsel].(*dst.SelectorExpr)
		if !ok {
			return errManual("sqlc's Queries field is not in the decorated file")
		}
		// r.q.CreateOrder(ctx, ...) -> db.New(outbox.SQL(ctx, r.db)).CreateOrder(ctx, ...)
		holder := &dst.SelectorExpr{X: dst.Clone(df.X).(dst.Expr), Sel: dst.NewIdent(sq.holders[i])}
		acc := &dst.CallExpr{Fun: &dst.Ident{Name: sq.acc, Path: s.opts.OutboxPkg}, Args: []dst.Expr{dst.NewIdent(sq.ctx), holder}}
		replaceExpr(uf.df, df, &dst.CallExpr{Fun: &dst.Ident{Name: "New", Path: sq.newPkg}, Args: []dst.Expr{acc}})
	}
	s.done[sq.caller.decl] = true
	return nil
}
