package rewrite

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// The checks below keep a finding manual where the unit of work would not
// hold (issue 18, "What fix does", point 4). Each reason names the function
// and the line where the unit is lost.

// at is "file.go:line" of a node in a function's file.
func (d funcDecl) at(n ast.Node) string {
	p := d.pkg.Fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

// ctxVars are the context variables of a function that carry its caller's
// context: its context.Context parameters, and the locals assigned from an
// expression that uses one of them (ctx, cancel := context.WithTimeout(ctx, d)).
func ctxVars(d funcDecl) map[types.Object]bool {
	info := d.pkg.TypesInfo
	vars := map[types.Object]bool{}
	for _, f := range d.decl.Type.Params.List {
		for _, n := range f.Names {
			if obj := info.Defs[n]; obj != nil && isContext(obj.Type()) {
				vars[obj] = true
			}
		}
	}
	if d.decl.Recv != nil {
		for _, f := range d.decl.Recv.List {
			for _, n := range f.Names {
				if obj := info.Defs[n]; obj != nil && isContext(obj.Type()) {
					vars[obj] = true
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		ast.Inspect(d.decl.Body, func(n ast.Node) bool {
			var lhs []ast.Expr
			var rhs []ast.Expr
			switch x := n.(type) {
			case *ast.AssignStmt:
				lhs, rhs = x.Lhs, x.Rhs
			case *ast.ValueSpec:
				for _, id := range x.Names {
					lhs = append(lhs, id)
				}
				rhs = x.Values
			default:
				return true
			}
			from := false
			for _, r := range rhs {
				from = from || usesAny(info, r, vars)
			}
			if !from {
				return true
			}
			for _, l := range lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				if obj := objOf(info, id); obj != nil && isContext(obj.Type()) && !vars[obj] {
					vars[obj] = true
					changed = true
				}
			}
			return true
		})
	}
	return vars
}

// usesAny reports whether e mentions one of vars.
func usesAny(info *types.Info, e ast.Node, vars map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && vars[info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}

// ctxFlows checks that the context of the function at chain[0] reaches
// every function down chain (full names, outermost first): each call to
// the next one passes, in every context.Context parameter, the caller's
// own context or one derived from it. A call that passes
// context.Background() or another context, or a callee without a context
// parameter, loses the unit of work there. what names the end ("the
// write", "the broker call").
func (s *unitSession) ctxFlows(first funcDecl, chain []string, what string) string {
	for i := 0; i+1 < len(chain); i++ {
		d := first
		if i > 0 {
			var ok bool
			if d, ok = s.decls[chain[i]]; !ok {
				continue // an interface method: the call passes its arguments on
			}
		}
		next := chain[i+1]
		vars := ctxVars(d)
		info := d.pkg.TypesInfo
		var why string
		ast.Inspect(d.decl.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok || why != "" {
				return why == ""
			}
			fn, ok := typeutil.Callee(info, c).(*types.Func)
			if !ok || fn.FullName() != next {
				return true
			}
			sig := fn.Signature()
			passed := false
			for j := 0; j < sig.Params().Len() && j < len(c.Args); j++ {
				if !isContext(sig.Params().At(j).Type()) {
					continue
				}
				passed = true
				if !usesAny(info, c.Args[j], vars) {
					why = fmt.Sprintf("the unit's context does not reach %s: %s calls %s with %s (%s), not its own context", what, shortName(d.fn.FullName()), shortName(next), nodeText(d, c.Args[j]), d.at(c))
					return false
				}
			}
			if !passed {
				why = fmt.Sprintf("the unit's context does not reach %s: %s calls %s (%s), which takes no context.Context", what, shortName(d.fn.FullName()), shortName(next), d.at(c))
				return false
			}
			return true
		})
		if why != "" {
			return why
		}
	}
	return ""
}

// nodeText is the source of a short expression, for a reason.
func nodeText(d funcDecl, e ast.Expr) string {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return nodeText(d, x.X) + "." + x.Sel.Name
	case *ast.CallExpr:
		if len(x.Args) == 0 {
			return nodeText(d, x.Fun) + "()"
		}
		return nodeText(d, x.Fun) + "(...)"
	}
	return "another context"
}

// goStmt is the first go statement of a body (not inside a closure), nil
// when there is none.
func goStmt(body *ast.BlockStmt) *ast.GoStmt {
	var found *ast.GoStmt
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.GoStmt:
			found = x
		case *ast.FuncLit:
			return false // a closure's goroutines are its own
		}
		return found == nil
	})
	return found
}

// handlePassedOn finds, in the repository's body, a call that takes one of
// the handles the unit would wrap as an argument (audit.Record(ctx, r.db,
// ...)): the code there would use the pool, outside the unit's transaction.
func handlePassedOn(repo funcDecl, objs map[types.Object]bool) string {
	info := repo.pkg.TypesInfo
	var why string
	ast.Inspect(repo.decl.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || why != "" {
			return why == ""
		}
		for _, a := range c.Args {
			obj := handleObj(info, a)
			if obj == nil || !objs[obj] {
				continue
			}
			callee := nodeText(repo, c.Fun)
			if fn, ok := typeutil.Callee(info, c).(*types.Func); ok {
				callee = shortName(fn.FullName())
			}
			why = fmt.Sprintf("%s passes its handle %s (%s) on to %s (%s): the code there would use the pool outside the unit's transaction; make that code take outbox.SQL(ctx, db) (or the unit's handle), or join it by hand",
				shortName(repo.fn.FullName()), nodeText(repo, a), types.TypeString(info.TypeOf(a), nil), callee, repo.at(c))
			return false
		}
		return true
	})
	return why
}

// noAccessorReason says why a write's handle cannot join the unit: a
// connection taken from the pool, a prepared statement, or a handle type
// the writer has no accessor for.
func noAccessorReason(repo funcDecl, handle ast.Expr, t types.Type) string {
	info := repo.pkg.TypesInfo
	name := shortName(repo.fn.FullName())
	src := nodeText(repo, handle)
	switch types.TypeString(t, nil) {
	case "*database/sql.Conn", "*github.com/jackc/pgx/v5/pgxpool.Conn", "*github.com/jackc/pgx/v4/pgxpool.Conn",
		"*github.com/jackc/pgx/v5.Conn", "*github.com/jackc/pgx/v4.Conn":
		where := repo.at(handle)
		if def := definingCall(repo, handleObj(info, handle)); def != nil {
			where = nodeText(repo, def.Fun) + ", " + repo.at(def)
		}
		return fmt.Sprintf("%s writes on a connection it holds, %s (%s; %s): the unit cannot put its transaction there; write through the pool (outbox.SQL(ctx, db) / outbox.Pgx(ctx, pool)) or join the unit by hand",
			name, src, types.TypeString(t, nil), where)
	case "*database/sql.Stmt":
		return fmt.Sprintf("%s writes through a prepared statement, %s (*sql.Stmt, %s), prepared on the pool: the unit cannot bind it to its transaction; run it on the unit's transaction by hand (tx.StmtContext) or write through outbox.SQL(ctx, db)",
			name, src, repo.at(handle))
	}
	return fmt.Sprintf("%s writes through %s (%s, %s), which has no unit-of-work accessor in the generated writer", name, src, types.TypeString(t, nil), repo.at(handle))
}

// definingCall is the call a local variable was assigned from in the
// function (conn, err := r.db.Conn(ctx)), nil if none is seen.
func definingCall(d funcDecl, obj types.Object) *ast.CallExpr {
	if obj == nil {
		return nil
	}
	var found *ast.CallExpr
	ast.Inspect(d.decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found != nil || len(as.Rhs) != 1 {
			return found == nil
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && d.pkg.TypesInfo.Defs[id] == obj {
				if c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok {
					found = c
				}
			}
		}
		return found == nil
	})
	return found
}

// writeSite is a SQL write reachable from the unit's body.
type writeSite struct {
	d      funcDecl
	call   *ast.CallExpr
	parent *ast.SelectorExpr // the selector whose X is the handle, nil when there is none
	obj    types.Object      // the handle's variable or field
	path   []string          // the functions from the meeting function to d, full names
	read   bool              // a query that does not write: joins the unit when it can, else stays
}

// writesFrom lists the SQL writes (catalog writes, DML queries) made in
// meet's body and in every loaded function it reaches, through static
// calls and interface methods (each implementation among the loaded
// packages). Writes on a transaction handle are left out: the code's own
// transactions are findOwnTx's.
func (s *unitSession) writesFrom(meet funcDecl) []writeSite {
	if out, ok := s.writesCache[meet.decl]; ok {
		return out
	}
	if s.writesCache == nil {
		s.writesCache = map[*ast.FuncDecl][]writeSite{}
	}
	out := s.walkWrites(meet)
	s.writesCache[meet.decl] = out
	return out
}

func (s *unitSession) walkWrites(meet funcDecl) []writeSite {
	var out []writeSite
	seen := map[*ast.FuncDecl]bool{}
	var visit func(d funcDecl, path []string)
	visit = func(d funcDecl, path []string) {
		if seen[d.decl] || len(path) > 12 || ast.IsGenerated(d.file) {
			return
		}
		seen[d.decl] = true
		info := d.pkg.TypesInfo
		ast.Inspect(d.decl.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(info, c).(*types.Func)
			if !ok {
				return true
			}
			if e := catalog.Default().Match(fn); e != nil {
				if e.Store == catalog.SQL && (e.Kind == catalog.Write || e.Kind == catalog.Query) {
					w := writeSite{d: d, call: c, path: path, read: e.Kind == catalog.Query && !dmlArg(info, c, e.SQL)}
					if w.parent = handleParent(c); w.parent != nil {
						if catalog.Default().IsTxType(info.TypeOf(w.parent.X)) {
							return true
						}
						w.obj = handleObj(info, w.parent.X)
					}
					out = append(out, w)
				}
				return true
			}
			if fn.Pkg() != nil && fn.Pkg().Path() == s.opts.OutboxPkg {
				return true
			}
			for _, next := range s.callees(fn) {
				visit(next, append(append([]string(nil), path...), next.fn.FullName()))
			}
			return true
		})
	}
	visit(meet, []string{meet.fn.FullName()})
	return out
}

// callees are the loaded bodies a call to fn may run: its own, or for an
// interface method each implementation's.
func (s *unitSession) callees(fn *types.Func) []funcDecl {
	if d, ok := s.decls[fn.FullName()]; ok {
		return []funcDecl{d}
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	it, ok := recv.Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if out, ok := s.implCache[fn]; ok {
		return out
	}
	if s.byMethod == nil {
		s.byMethod = map[string][]string{}
		for name, d := range s.decls {
			if d.fn.Signature().Recv() != nil {
				s.byMethod[d.fn.Name()] = append(s.byMethod[d.fn.Name()], name)
			}
		}
		for _, names := range s.byMethod {
			sort.Strings(names)
		}
	}
	names := s.byMethod[fn.Name()]
	var out []funcDecl
	for _, name := range names {
		d := s.decls[name]
		t := d.fn.Signature().Recv().Type()
		if strings.HasSuffix(d.pkg.Fset.File(d.file.FileStart).Name(), "_test.go") {
			continue
		}
		if types.Implements(t, it) {
			out = append(out, d)
			continue
		}
		if _, isPtr := t.(*types.Pointer); !isPtr && types.Implements(types.NewPointer(t), it) {
			out = append(out, d)
		}
	}
	if s.implCache == nil {
		s.implCache = map[*types.Func][]funcDecl{}
	}
	s.implCache[fn] = out
	return out
}

// sharesPool reports whether two handle variables can be shown to hold the
// same pool: the same variable or field, or fields every assignment of
// which (composite literals, x.f = v) comes from one variable, followed
// through the parameters of the functions that assign them to the
// arguments of every call (a constructor NewRepo(db) called with the same
// db as NewAudit(db)).
func (s *unitSession) sharesPool(a, b types.Object) bool {
	if a == b {
		return true
	}
	sa, sb := s.poolSource(a, 0), s.poolSource(b, 0)
	return sa != nil && sa == sb
}

// poolSource is the one variable a handle variable's value comes from,
// nil when there is not exactly one (or it cannot be followed).
func (s *unitSession) poolSource(obj types.Object, depth int) types.Object {
	v, ok := obj.(*types.Var)
	if !ok || depth > 4 {
		return nil
	}
	var srcs []types.Object
	switch {
	case v.IsField():
		srcs = s.assignedTo(v)
	case s.paramOf(v) != nil:
		srcs = s.argsFor(v)
	}
	if len(srcs) == 0 {
		// a package-level variable or a local, a field never assigned
		// here, a parameter of a function never called here: itself
		return v
	}
	var out types.Object
	for _, src := range srcs {
		if src == nil {
			return nil
		}
		next := s.poolSource(src, depth+1)
		if next == nil || out != nil && next != out {
			return nil
		}
		out = next
	}
	return out
}

// assignedTo lists what every assignment to a field assigns (nil for an
// expression that is not a variable), over the loaded packages.
func (s *unitSession) assignedTo(field *types.Var) []types.Object {
	var out []types.Object
	for _, a := range s.assignedExprs(field) {
		if a.e == nil {
			out = append(out, nil)
			continue
		}
		out = append(out, handleObj(a.info, a.e))
	}
	return out
}

// paramOf is the function a parameter belongs to, nil when v is none.
func (s *unitSession) paramOf(v *types.Var) *funcDecl {
	if s.params == nil {
		s.params = map[*types.Var]funcDecl{}
		for _, d := range s.decls {
			params := d.fn.Signature().Params()
			for i := 0; i < params.Len(); i++ {
				s.params[params.At(i)] = d
			}
		}
	}
	if d, ok := s.params[v]; ok {
		return &d
	}
	return nil
}

// argsFor lists the arguments every call of a parameter's function passes
// for it (nil for one that is not a variable), over the loaded packages.
func (s *unitSession) argsFor(v *types.Var) []types.Object {
	d := s.paramOf(v)
	idx := -1
	params := d.fn.Signature().Params()
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == v {
			idx = i
		}
	}
	s.index()
	var out []types.Object
	for _, c := range s.callsOf[d.fn] {
		call := c.e.(*ast.CallExpr)
		if idx < len(call.Args) && !call.Ellipsis.IsValid() {
			out = append(out, handleObj(c.info, call.Args[idx]))
		} else {
			out = append(out, nil)
		}
	}
	return out
}

// index walks the loaded syntax once: the assignments to every field
// (composite literals, keyed or not, and x.f = v) and the calls of every
// function.
func (s *unitSession) index() {
	if s.assigned != nil {
		return
	}
	s.assigned = map[*types.Var][]assignedExpr{}
	s.callsOf = map[*types.Func][]assignedExpr{}
	for _, p := range s.syntaxPkgs() {
		info := p.TypesInfo
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.CallExpr:
					if fn, ok := typeutil.Callee(info, x).(*types.Func); ok {
						s.callsOf[fn] = append(s.callsOf[fn], assignedExpr{info, x})
					}
				case *ast.CompositeLit:
					st, _ := info.TypeOf(x).Underlying().(*types.Struct)
					for i, e := range x.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if id, ok := kv.Key.(*ast.Ident); ok {
								if fld, ok := info.Uses[id].(*types.Var); ok && fld.IsField() {
									s.assigned[fld] = append(s.assigned[fld], assignedExpr{info, kv.Value})
								}
							}
							continue
						}
						if st != nil && i < st.NumFields() {
							s.assigned[st.Field(i)] = append(s.assigned[st.Field(i)], assignedExpr{info, e})
						}
					}
				case *ast.AssignStmt:
					for i, l := range x.Lhs {
						if sel, ok := l.(*ast.SelectorExpr); ok {
							if fld, ok := info.Uses[sel.Sel].(*types.Var); ok && fld.IsField() {
								var e ast.Expr
								if len(x.Rhs) == len(x.Lhs) {
									e = x.Rhs[i]
								}
								s.assigned[fld] = append(s.assigned[fld], assignedExpr{info, e})
							}
						}
					}
				}
				return true
			})
		}
	}
}

// syntaxPkgs are the loaded packages with syntax and types.
func (s *unitSession) syntaxPkgs() []*packages.Package {
	if s.withSyntax == nil {
		packages.Visit(s.pkgs, nil, func(p *packages.Package) {
			if p.TypesInfo != nil && len(p.Syntax) > 0 {
				s.withSyntax = append(s.withSyntax, p)
			}
		})
	}
	return s.withSyntax
}

// extraUse is a function, other than the repository on the finding's
// path, whose writes on a handle shown to share the unit's pool join the
// unit too.
type extraUse struct {
	d       funcDecl
	acc     string
	ctx     string
	parents []*ast.SelectorExpr
}

// otherWrites checks every other SQL write the unit's body reaches (the
// finding names one write; a function may make several, in other
// repositories). A write on a handle shown to hold the same pool as the
// finding's joins the unit as well (returned); any other keeps the
// finding manual: a write left on the pool would commit on its own, out
// of the unit's transaction (and wait on its row locks), and one on
// another pool cannot share the transaction at all.
func (s *unitSession) otherWrites(meet, repo funcDecl, objs map[types.Object]bool, own bool) ([]extraUse, string) {
	byDecl := map[*ast.FuncDecl]*extraUse{}
	var out []extraUse
	var order []*ast.FuncDecl
	var base types.Object
	var baseAt string
	for o := range objs {
		base = o
	}
	if base != nil {
		baseAt = shortName(repo.fn.FullName())
	}
	for _, w := range s.writesFrom(meet) {
		if w.d.decl == repo.decl && objs[w.obj] {
			continue // the finding's own write: joined
		}
		if w.read && (own || !s.readJoins(meet, w, base)) {
			// a read that cannot join (another pool, a replica, no
			// context) stays where it is: it changes nothing the unit commits
			continue
		}
		name := shortName(w.d.fn.FullName())
		if w.obj == nil {
			return nil, fmt.Sprintf("%s also writes (%s) through an expression fix cannot follow to a handle: join that write to the unit by hand", name, w.d.at(w.call))
		}
		hsrc := nodeText(w.d, w.parent.X)
		if own || base == nil {
			return nil, fmt.Sprintf("%s also writes through %s (%s) outside the transaction fix joins to the unit: it would commit on its own; join it by hand (outbox.SQL(ctx, db))", name, hsrc, w.d.at(w.call))
		}
		if !s.sharesPool(w.obj, base) {
			if v, ok := w.obj.(*types.Var); ok && !v.IsField() && s.paramOf(v) != nil {
				return nil, fmt.Sprintf("%s writes through %s (%s), a %s passed on to it, which cannot be shown to be the pool %s writes on (its callers pass it other handles too): one transaction cannot span two pools; pass the unit's handle by hand (outbox.SQL(ctx, db)) or keep that write out of the function",
					name, hsrc, w.d.at(w.call), types.TypeString(v.Type(), nil), baseAt)
			}
			b := firstUse(repo, base)
			return nil, fmt.Sprintf("the function writes through two handles that cannot be shown to share a pool: %s in %s (%s) and %s in %s (%s); one transaction cannot span them (outbox.ErrOtherDB): keep one store of record in the function, or write the outbox row by hand",
				nodeText(repo, b), baseAt, repo.at(b), hsrc, name, w.d.at(w.call))
		}
		t := w.d.pkg.TypesInfo.TypeOf(w.parent.X)
		acc := s.accessor(t)
		if acc == "" {
			return nil, noAccessorReason(w.d, w.parent.X, t)
		}
		if ms := accessorMethods[acc]; ms != nil && !ms[w.parent.Sel.Name] {
			return nil, fmt.Sprintf("%s also writes with %s (%s), which is not a method of the unit's %s handle (use its context form)", name, w.parent.Sel.Name, w.d.at(w.call), acc)
		}
		ctx := ctxParam(w.d.pkg.TypesInfo, w.d.decl.Type)
		if ctx == "" {
			return nil, fmt.Sprintf("%s also writes (%s) and has no context.Context parameter: the unit cannot reach that write", name, w.d.at(w.call))
		}
		if why := s.ctxFlows(meet, w.path, "the write in "+name); why != "" {
			return nil, why
		}
		e := byDecl[w.d.decl]
		if e == nil {
			e = &extraUse{d: w.d, acc: acc, ctx: ctx}
			byDecl[w.d.decl] = e
			order = append(order, w.d.decl)
		} else if e.acc != acc {
			return nil, fmt.Sprintf("%s writes through handles of two kinds (%s): join them by hand", name, w.d.at(w.call))
		}
		// the function's calls on that handle join: writes and reads
		ast.Inspect(w.d.decl.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			p := handleParent(c)
			if p == nil || handleObj(w.d.pkg.TypesInfo, p.X) != w.obj || !accessorMethods[acc][p.Sel.Name] && acc != "Gorm" && p != w.parent {
				return true
			}
			for _, q := range e.parents {
				if q == p {
					return true
				}
			}
			e.parents = append(e.parents, p)
			return true
		})
	}
	for _, d := range order {
		out = append(out, *byDecl[d])
	}
	return out, ""
}

// readJoins reports whether a read the unit's body reaches can run on the
// unit's transaction: its handle holds the writes' pool, the unit has an
// accessor for it and the context reaches it. Reads join so the body sees
// its own writes and does not wait on the rows its transaction locked (or,
// N units on an N-connection pool, on a connection none will free).
func (s *unitSession) readJoins(meet funcDecl, w writeSite, base types.Object) bool {
	if w.obj == nil || base == nil || w.parent == nil || !s.sharesPool(w.obj, base) {
		return false
	}
	acc := s.accessor(w.d.pkg.TypesInfo.TypeOf(w.parent.X))
	if acc == "" || accessorMethods[acc] != nil && !accessorMethods[acc][w.parent.Sel.Name] {
		return false
	}
	return ctxParam(w.d.pkg.TypesInfo, w.d.decl.Type) != "" && s.ctxFlows(meet, w.path, "the read") == ""
}

// firstUse is the first selector or identifier in d naming obj (for a
// reason), the declaration's name when none does.
func firstUse(d funcDecl, obj types.Object) ast.Expr {
	var found ast.Expr
	ast.Inspect(d.decl.Body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		if e, ok := n.(ast.Expr); ok {
			switch e.(type) {
			case *ast.SelectorExpr, *ast.Ident:
				if handleObj(d.pkg.TypesInfo, e) == obj {
					found = e
					return false
				}
			}
		}
		return true
	})
	if found == nil {
		return d.decl.Name
	}
	return found
}

// sqlcHolder finds, for sqlc's Queries kept in a field (r.q), the handle
// field of the same struct it was built from: every assignment of the field
// is the generated package's New(x), and the struct holds a handle the unit
// has an accessor for that is shown to share x's pool. It returns that
// field's name and accessor, or why the Queries cannot join the unit.
func (s *unitSession) sqlcHolder(caller funcDecl, fsel *ast.SelectorExpr, fld *types.Var, gen funcDecl) (string, string, string) {
	info := caller.pkg.TypesInfo
	where := shortName(caller.fn.FullName()) + " (" + caller.at(fsel) + ")"
	var built []types.Object
	for _, a := range s.assignedExprs(fld) {
		c, ok := ast.Unparen(a.e).(*ast.CallExpr)
		var fn *types.Func
		if ok {
			fn, _ = typeutil.Callee(a.info, c).(*types.Func)
		}
		if fn == nil || fn.Name() != "New" || fn.Signature().Recv() != nil || fn.Pkg() != gen.fn.Pkg() || len(c.Args) != 1 {
			return "", "", "sqlc's Queries in " + where + " is the field " + nodeText(caller, fsel) + ", which is assigned something other than New(db): build it with New(outbox.SQL(ctx, db)) where it is called, or bind it to the unit's transaction with WithTx"
		}
		obj := handleObj(a.info, c.Args[0])
		if obj == nil {
			return "", "", "sqlc's Queries in " + where + " is the field " + nodeText(caller, fsel) + ", built with New on an expression fix cannot follow to a handle"
		}
		built = append(built, obj)
	}
	if len(built) == 0 {
		return "", "", "sqlc's Queries in " + where + " is the field " + nodeText(caller, fsel) + ", never assigned here: fix cannot see what it is built on"
	}
	t := info.TypeOf(fsel.X)
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if ok {
		for i := 0; i < st.NumFields(); i++ {
			h := st.Field(i)
			acc := s.accessor(h.Type())
			if acc != "SQL" && acc != "Sqlx" {
				continue
			}
			shared := true
			for _, b := range built {
				shared = shared && s.sharesPool(h, b)
			}
			if shared {
				return h.Name(), acc, ""
			}
		}
	}
	return "", "", "sqlc's Queries in " + where + " is the field " + nodeText(caller, fsel) + ", and the repository holds no *sql.DB shown to be the pool it was built on: keep that handle in the repository too (fix then calls New(outbox.SQL(ctx, db)) there), or bind Queries to the unit's transaction with WithTx"
}

// assignedExpr is an expression assigned to a field, with its package's
// type information.
type assignedExpr struct {
	info *types.Info
	e    ast.Expr
}

// assignedExprs lists what every assignment to a field assigns over the
// loaded packages (composite literals, keyed or not, and x.f = v).
func (s *unitSession) assignedExprs(field *types.Var) []assignedExpr {
	s.index()
	return s.assigned[field]
}
