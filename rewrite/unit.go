package rewrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"github.com/dave/dst/dstutil"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// StrategyUnit names the cross-function rewrite: the function where the
// write and the publish meet runs in outbox.Run, the repository's handle
// joins the unit (outbox.SQL/Gorm/Pgx), the publisher wrapper's broker call
// is guarded by outbox.Enqueue.
const StrategyUnit = "unit-of-work"

// unitFile is one file the unit-of-work rewrite edits.
type unitFile struct {
	pkg  *packages.Package
	file *ast.File
	dec  *decorator.Decorator
	df   *dst.File
	name string
	// replaced: the findings whose meeting function is in this file
	replaced []Replacement
	marks    []*dst.Ident // the Run identifiers of those functions, to find their lines
	shared   *pendingFile // the per-function strategies' tree of this file, rendered by them
}

// unitSession rewrites the findings whose publish goes through a wrapper,
// across the files of the meeting function, the repository and the wrapper.
// Every file it edits is one group: if one of them would not compile, none
// is written (a half rewrite changes behaviour and stays a dual write).
type unitSession struct {
	opts  Options
	pkgs  []*packages.Package
	decls map[string]funcDecl // full name -> declaration
	files map[*ast.File]*unitFile
	order []*ast.File
	done  map[*ast.FuncDecl]bool       // wrappers guarded, repositories joined
	runs  map[*ast.FuncDecl]*dst.Ident // functions whose body runs in outbox.Run: the Run identifier
	noKey map[*ast.FuncDecl]string     // wrappers whose messages have no key: the note for their sites
	// pending are the files the per-function strategies edited: the unit
	// edits the same trees
	pending map[*ast.File]*pendingFile
	// touched lists, per rewritten finding, the files it edits: files
	// linked through findings compile together or are dropped together.
	touched [][]*ast.File
	// withSyntax caches the packages with syntax (sharesPool's searches)
	withSyntax []*packages.Package
	// wrappedSel are the handle selectors already wrapped in outbox.X(ctx, h)
	wrappedSel map[*ast.SelectorExpr]bool
	// caches of the checks in unitcheck.go
	writesCache map[*ast.FuncDecl][]writeSite
	implCache   map[*types.Func][]funcDecl
	byMethod    map[string][]string
	params      map[*types.Var]funcDecl
	assigned    map[*types.Var][]assignedExpr
	callsOf     map[*types.Func][]assignedExpr
	// depPubs: package path -> the broker client package it imports,
	// directly or not ("" none); pkgByPath indexes the loaded import graph
	depPubs   map[string]string
	pkgByPath map[string]*packages.Package
	// pubReach: whether a declaration reaches a broker call (reachesPublish)
	pubReach map[*ast.FuncDecl]bool
	pubBusy  map[*ast.FuncDecl]bool
	pubCycle bool // an answer in progress leaned on a function still being answered
}

type funcDecl struct {
	pkg  *packages.Package
	file *ast.File
	decl *ast.FuncDecl
	fn   *types.Func
}

func newUnitSession(pkgs []*packages.Package, opts Options) *unitSession {
	s := &unitSession{opts: opts, pkgs: pkgs, decls: map[string]funcDecl{}, files: map[*ast.File]*unitFile{}, done: map[*ast.FuncDecl]bool{}, runs: map[*ast.FuncDecl]*dst.Ident{}, noKey: map[*ast.FuncDecl]string{}, wrappedSel: map[*ast.SelectorExpr]bool{}}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		// Only the module's own code is rewritten: a dependency's syntax
		// (kept by the loader for some library bodies) is never edited.
		if p.TypesInfo == nil || p.Module != nil && !p.Module.Main {
			return
		}
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if fn, ok := p.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					s.decls[fn.FullName()] = funcDecl{pkg: p, file: f, decl: fd, fn: fn}
				}
			}
		}
	})
	return s
}

// accessor names the unit's accessor for a handle type, "" when none.
func (s *unitSession) accessor(t types.Type) string {
	switch strings.TrimPrefix(types.TypeString(t, nil), "*") {
	case "database/sql.DB":
		if s.opts.Accessors["SQL"] {
			return "SQL"
		}
	case "gorm.io/gorm.DB":
		if s.opts.Accessors["Gorm"] {
			return "Gorm"
		}
	case "github.com/jackc/pgx/v5/pgxpool.Pool":
		if s.opts.Accessors["Pgx"] {
			return "Pgx"
		}
	case "github.com/jackc/pgx/v4/pgxpool.Pool":
		if s.opts.Accessors["PgxV4"] {
			return "PgxV4"
		}
	case "github.com/jmoiron/sqlx.DB":
		if s.opts.Accessors["Sqlx"] {
			return "Sqlx"
		}
	}
	return ""
}

// fileOf decorates a file once.
func (s *unitSession) fileOf(d funcDecl) (*unitFile, error) {
	if uf, ok := s.files[d.file]; ok {
		return uf, nil
	}
	if pf := s.pending[d.file]; pf != nil {
		uf := &unitFile{pkg: d.pkg, file: d.file, dec: pf.dec, df: pf.df, name: d.pkg.Fset.File(d.file.FileStart).Name(), shared: pf}
		s.files[d.file] = uf
		s.order = append(s.order, d.file)
		return uf, nil
	}
	dec := decorator.NewDecoratorFromPackage(d.pkg)
	df, err := dec.DecorateFile(d.file)
	if err != nil {
		return nil, err
	}
	uf := &unitFile{pkg: d.pkg, file: d.file, dec: dec, df: df, name: d.pkg.Fset.File(d.file.FileStart).Name()}
	s.files[d.file] = uf
	s.order = append(s.order, d.file)
	return uf, nil
}

// ctxParam is the name of a function's context.Context parameter, "" if none.
func ctxParam(info *types.Info, ft *ast.FuncType) string {
	for _, f := range ft.Params.List {
		for _, n := range f.Names {
			if n.Name != "_" && isContext(info.TypeOf(n)) {
				return n.Name
			}
		}
	}
	return ""
}

// lastDecl is the innermost function of a call chain that has a body here.
func (s *unitSession) lastDecl(via []string) (funcDecl, bool) {
	for i := len(via) - 1; i >= 0; i-- {
		if d, ok := s.decls[via[i]]; ok {
			return d, true
		}
	}
	return funcDecl{}, false
}

// plan checks one finding and returns the edits, or why it stays manual.
// Nothing is edited until every check passed.
func (s *unitSession) plan(f dualwrite.Finding) (func() error, string) {
	meet, ok := s.decls[f.Func]
	if !ok {
		return nil, "the function holding the dual write is not among the loaded packages"
	}
	sig := meet.fn.Signature()
	nres := sig.Results().Len()
	if nres == 0 || !types.Identical(sig.Results().At(nres-1).Type(), types.Universe.Lookup("error").Type()) {
		return nil, "the function does not return an error last: outbox.Run's result has nowhere to go"
	}
	named := sig.Results().At(0).Name() != ""
	if named {
		for i := 0; i < nres; i++ {
			if sig.Results().At(i).Name() == "_" {
				return nil, "the function has a blank named result: its value cannot be carried out of outbox.Run"
			}
		}
	}
	ctxName := ctxParam(meet.pkg.TypesInfo, meet.decl.Type)
	if ctxName == "" {
		return nil, "the function " + shortName(meet.fn.FullName()) + " (" + meet.at(meet.decl) + ") has no context.Context parameter to carry the unit of work"
	}
	if g := goStmt(meet.decl.Body); g != nil {
		return nil, shortName(meet.fn.FullName()) + " starts a goroutine (" + meet.at(g) + "): its work would leave the unit of work, or use its transaction from another goroutine"
	}
	if f.Write == nil {
		return nil, "no write to put in the unit of work"
	}
	// the wrapper and its broker call
	wrap, ok := s.lastDecl(f.Publish.Via)
	if !ok {
		return nil, "the publisher wrapper's body is not among the loaded packages"
	}
	wp, why := s.checkWrapper(wrap, f.Publish.Name)
	if why != "" {
		return nil, why
	}
	wrappers := []*wrapperPlan{wp}
	// the unit travels in the context: it must reach the wrapper and the write
	if why := s.ctxFlows(meet, append([]string{f.Func}, f.Publish.Via...), "the broker call"); why != "" {
		return nil, why
	}
	if why := s.ctxFlows(meet, append([]string{f.Func}, f.Write.Via...), "the write"); why != "" {
		return nil, why
	}
	// the wrapper's sibling implementations behind the same interface
	// method run in the unit too (another service instance wired with
	// them): each one's broker call is guarded, or the finding stays manual
	for _, sib := range s.siblingWrappers(f.Publish.Via) {
		targets, why := s.publishTargets(sib.d, sib.im)
		if why != "" {
			return nil, why
		}
		for _, t := range targets { // none: it publishes nothing to guard
			sp, why := s.checkWrapper(t.d, t.name)
			if why != "" {
				return nil, "another implementation of the publisher: " + why
			}
			if why := s.ctxFlows(sib.d, t.chain, "the broker call of "+shortName(sib.d.fn.FullName())); why != "" {
				return nil, "another implementation of the publisher: " + why
			}
			if slices.ContainsFunc(wrappers, func(w *wrapperPlan) bool { return w.wrap.decl == t.d.decl }) {
				continue // reached from two implementations (a decorator's inner one)
			}
			if t.d.decl != sib.d.decl {
				sp.impl = &sib.d
			}
			wrappers = append(wrappers, sp)
		}
	}
	// a transaction the code begins itself on the write's path joins the
	// unit; otherwise the repository's handle does
	ot, own, why := s.findOwnTx(meet, f)
	if why != "" {
		return nil, why
	}
	if own && !s.opts.Accessors["BeginSQL"] {
		return nil, "the code begins its own transaction and the outbox writer has no outbox.BeginSQL to join it to the unit of work"
	}
	repo := meet
	if own {
		repo = ot.owner
	} else if len(f.Write.Via) > 0 {
		if repo, ok = s.lastDecl(f.Write.Via); !ok {
			return nil, "the repository's body is not among the loaded packages"
		}
	}
	// sqlc: the write is in generated code (Queries.CreateOrder on its
	// DBTX); the handle to join is the one Queries was built from, New(db)
	// in the function that calls it
	var sq *sqlcNew
	if !own && ast.IsGenerated(repo.file) {
		var why string
		if sq, why = s.findSqlcNew(meet, f, repo); why != "" {
			return nil, why
		}
		if sq != nil {
			own, repo = true, sq.caller // no handle of the generated file is wrapped
		}
	}
	rctx := ctxParam(repo.pkg.TypesInfo, repo.decl.Type)
	type handleUse struct {
		parent *ast.SelectorExpr // its X is the handle (r.db): X becomes outbox.SQL(ctx, r.db)
		ctx    ast.Expr          // the call's own context argument, when the repository has no ctx parameter
	}
	var handles []handleUse
	var acc string
	ast.Inspect(repo.decl.Body, func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if own || !ok || why != "" {
			return why == ""
		}
		fn, ok := typeutil.Callee(repo.pkg.TypesInfo, c).(*types.Func)
		if !ok || fn.Signature().Recv() == nil || (fn.FullName() != f.Write.Name && !sameHandleMethod(fn, f.Write.Name)) {
			return true
		}
		parent := handleParent(c)
		if parent == nil {
			why = "the write's handle is not a field or variable the repository holds"
			return false
		}
		t := repo.pkg.TypesInfo.TypeOf(parent.X)
		a := s.accessor(t)
		if a == "" {
			why = noAccessorReason(repo, parent.X, t)
			if strings.TrimPrefix(types.TypeString(t, nil), "*") == "github.com/jackc/pgx/v4/pgxpool.Pool" {
				// pgx v4's CommandTag is declared in github.com/jackc/pgconn
				why = "the write's handle is a pgx v4 pool and the outbox writer has no outbox.PgxV4 for it: fix generates it only when go.mod requires github.com/jackc/pgconn directly (the accessor names pgx v4's pgconn.CommandTag, and fix does not change go.mod); require it (go get github.com/jackc/pgconn) and run fix again"
			}
			return false
		}
		if ms := accessorMethods[a]; ms != nil && !ms[parent.Sel.Name] {
			why = "the write " + parent.Sel.Name + " is not a method of the unit's " + a + " handle (use its context form)"
			return false
		}
		use := handleUse{parent: parent}
		if rctx == "" {
			if len(c.Args) > 0 && isContext(repo.pkg.TypesInfo.TypeOf(c.Args[0])) {
				use.ctx = c.Args[0]
			} else {
				why = "the repository has no context.Context to reach the unit of work"
				return false
			}
		}
		acc = a
		handles = append(handles, use)
		return true
	})
	if why != "" {
		return nil, why
	}
	if len(handles) == 0 && !own {
		return nil, "the write " + shortName(f.Write.Name) + " was not found in " + shortName(repo.fn.FullName())
	}
	// Reads on the same handle in that function join the unit too: they
	// must see the unit's writes (and not wait on its row locks).
	wrapped := map[*ast.SelectorExpr]bool{}
	objs := map[types.Object]bool{}
	for _, h := range handles {
		wrapped[h.parent] = true
		objs[handleObj(repo.pkg.TypesInfo, h.parent.X)] = true
	}
	ast.Inspect(repo.decl.Body, func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return true
		}
		parent := handleParent(c)
		if parent == nil || wrapped[parent] || !objs[handleObj(repo.pkg.TypesInfo, parent.X)] || !accessorMethods[acc][parent.Sel.Name] && acc != "Gorm" {
			return true
		}
		use := handleUse{parent: parent}
		if rctx == "" {
			if len(c.Args) == 0 || !isContext(repo.pkg.TypesInfo.TypeOf(c.Args[0])) {
				return true
			}
			use.ctx = c.Args[0]
		}
		wrapped[parent] = true
		handles = append(handles, use)
		return true
	})
	// every other write the body reaches joins the unit, or the finding
	// stays manual
	extras, why := s.otherWrites(meet, repo, objs, own)
	if why != "" {
		return nil, why
	}

	return func() error {
		// functions the per-function strategies edited are left to a second
		// run: their trees no longer match the loaded syntax there
		decls := []funcDecl{repo, meet}
		for _, w := range wrappers {
			decls = append(decls, w.wrap)
		}
		for _, e := range extras {
			decls = append(decls, e.d)
		}
		if own && sq == nil {
			for _, sib := range ot.siblings {
				decls = append(decls, sib.owner)
			}
		}
		for _, d := range decls {
			if pf := s.pending[d.file]; pf != nil && pf.funcs[d.decl] {
				return errManual(ReasonAgain)
			}
		}
		files := []*ast.File{}
		for _, d := range decls {
			files = append(files, d.file)
		}
		s.touched = append(s.touched, files)
		// the wrapper and its siblings: guard their broker calls (once per wrapper)
		for _, w := range wrappers {
			if err := s.guard(w); err != nil {
				return err
			}
		}
		// the code's own transaction joins the unit; or sqlc's Queries is
		// built on the unit's handle
		if sq != nil {
			if err := sq.apply(s); err != nil {
				return err
			}
		} else if own {
			if err := ot.apply(s); err != nil {
				return err
			}
		}
		// the repository: its handle joins the unit
		if !own && (!s.done[repo.decl] || repo.decl == meet.decl) {
			uf, err := s.fileOf(repo)
			if err != nil {
				return err
			}
			for _, h := range handles {
				if s.wrappedSel[h.parent] {
					continue // joined already as another finding's write
				}
				dp, ok := uf.dec.Dst.Nodes[h.parent].(*dst.SelectorExpr)
				if !ok {
					return errManual("the write's handle is not in the decorated file")
				}
				var ctx dst.Expr = dst.NewIdent(rctx)
				if h.ctx != nil {
					dc, ok := uf.dec.Dst.Nodes[h.ctx].(dst.Expr)
					if !ok {
						return errManual("the write's context is not in the decorated file")
					}
					ctx = dst.Clone(dc).(dst.Expr)
				}
				dp.X = &dst.CallExpr{Fun: &dst.Ident{Name: acc, Path: s.opts.OutboxPkg}, Args: []dst.Expr{ctx, dp.X}}
				s.wrappedSel[h.parent] = true
			}
			s.done[repo.decl] = true
		}
		// the other writes on the same pool join it too
		for _, e := range extras {
			uf, err := s.fileOf(e.d)
			if err != nil {
				return err
			}
			for _, p := range e.parents {
				if s.wrappedSel[p] {
					continue
				}
				dp, ok := uf.dec.Dst.Nodes[p].(*dst.SelectorExpr)
				if !ok {
					return errManual("a write's handle is not in the decorated file")
				}
				dp.X = &dst.CallExpr{Fun: &dst.Ident{Name: e.acc, Path: s.opts.OutboxPkg}, Args: []dst.Expr{dst.NewIdent(e.ctx), dp.X}}
				s.wrappedSel[p] = true
			}
		}
		// the meeting function: its body runs in outbox.Run (once; a
		// second finding there is recorded at the same Run)
		uf, err := s.fileOf(meet)
		if err != nil {
			return err
		}
		run := s.runs[meet.decl]
		if run == nil {
			dd, ok := uf.dec.Dst.Nodes[meet.decl].(*dst.FuncDecl)
			if !ok {
				return errManual("the function is not in the decorated file")
			}
			run = &dst.Ident{Name: "Run", Path: s.opts.OutboxPkg}
			runCall := &dst.CallExpr{
				Fun: run,
				Args: []dst.Expr{dst.NewIdent(ctxName), &dst.FuncLit{
					Type: ctxFuncType(ctxName),
					Body: &dst.BlockStmt{List: dd.Body.List},
				}},
			}
			if nres == 1 && !named {
				dd.Body.List = []dst.Stmt{&dst.ReturnStmt{Results: []dst.Expr{runCall}}}
			} else {
				dd.Body.List = carryResults(meet, dd, runCall)
			}
			s.runs[meet.decl] = run
		}
		uf.marks = append(uf.marks, run)
		r := Replacement{Rule: f.Rule, Call: f.Publish.Name, Strategy: StrategyUnit,
			Before: Position{File: f.Publish.Position.Filename, Line: f.Publish.Position.Line}}
		if own && sq == nil {
			r.extra = append(r.extra, ownTxNote)
		}
		for i, w := range wrappers {
			if n := s.noKey[w.wrap.decl]; n != "" {
				if i > 0 { // a sibling implementation: name it
					n = strings.Replace(n, "the publisher's messages", "the messages of "+shortName(w.wrap.fn.FullName())+" (another implementation of the publisher)", 1)
				}
				r.extra = append(r.extra, n)
			}
		}
		for _, w := range wrappers[1:] {
			if w.impl != nil {
				r.extra = append(r.extra, "another implementation of the publisher interface, "+shortName(w.impl.fn.FullName())+", publishes through "+shortName(w.wrap.fn.FullName())+" ("+w.wrap.at(w.brokerCall)+"), whose broker call is guarded too: a call through the interface may run it in the unit")
				continue
			}
			r.extra = append(r.extra, "another implementation of the publisher interface, "+shortName(w.wrap.fn.FullName())+" ("+w.wrap.at(w.brokerCall)+"), is guarded too: a call through the interface may run it in the unit")
		}
		uf.replaced = append(uf.replaced, r)
		return nil
	}, ""
}

// ReasonAgain is the reason of a finding left because its file was rewritten
// by another strategy in the same run: fix runs a second pass for it.
const ReasonAgain = "the file is rewritten by another strategy in this run: run fix again for this one"

// Again reports whether a second pass would rewrite more (ReasonAgain).
func (r *Result) Again() bool {
	for _, m := range r.Manual {
		if m.Reason == ReasonAgain {
			return true
		}
	}
	return false
}

// carryResults wraps a body returning (T..., error) in outbox.Run: the
// values go out through variables (the named results, or fresh ones), each
// return inside becomes their assignment and `return err`, and the function
// returns them after Run:
//
//	func f(ctx context.Context) (out T, err error) {
//		err = outbox.Run(ctx, func(ctx context.Context) error { ...; out = v; return nil })
//		return out, err
//	}
func carryResults(meet funcDecl, dd *dst.FuncDecl, runCall *dst.CallExpr) []dst.Stmt {
	used := map[string]bool{}
	ast.Inspect(meet.decl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			used[id.Name] = true
		}
		return true
	})
	fresh := func(base string) string {
		name := base
		for i := 2; used[name]; i++ {
			name = fmt.Sprintf("%s%d", base, i)
		}
		used[name] = true
		return name
	}
	var names []string
	named := false
	for _, fld := range dd.Type.Results.List {
		if len(fld.Names) == 0 {
			names = append(names, "")
			continue
		}
		named = true
		for _, n := range fld.Names {
			names = append(names, n.Name)
		}
	}
	if !named {
		// Name the results in the signature: its types resolve outside the
		// body, where a parameter cannot shadow their package (clients
		// ...clients.Client).
		for i, fld := range dd.Type.Results.List {
			if i == len(names)-1 {
				names[i] = fresh("err")
			} else {
				names[i] = fresh("out")
			}
			fld.Names = []*dst.Ident{dst.NewIdent(names[i])}
		}
	}
	errName := names[len(names)-1]
	lit := runCall.Args[1].(*dst.FuncLit)
	dstutil.Apply(lit.Body, func(c *dstutil.Cursor) bool {
		switch n := c.Node().(type) {
		case *dst.FuncLit:
			return n == lit // a nested closure's returns are its own
		case *dst.ReturnStmt:
			switch {
			case len(n.Results) == 0: // naked: the named results hold the values
				c.Replace(&dst.ReturnStmt{Results: []dst.Expr{dst.NewIdent(errName)}, Decs: n.Decs})
			case len(n.Results) == len(names):
				var lhs []dst.Expr
				for _, nm := range names[:len(names)-1] {
					lhs = append(lhs, dst.NewIdent(nm))
				}
				if len(lhs) > 0 {
					c.InsertBefore(&dst.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: n.Results[:len(n.Results)-1]})
				}
				c.Replace(&dst.ReturnStmt{Results: []dst.Expr{n.Results[len(n.Results)-1]}, Decs: n.Decs})
			case len(n.Results) == 1: // return f() with f returning all the values
				var lhs []dst.Expr
				for _, nm := range names {
					lhs = append(lhs, dst.NewIdent(nm))
				}
				c.InsertBefore(&dst.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, Rhs: n.Results})
				c.Replace(&dst.ReturnStmt{Results: []dst.Expr{dst.NewIdent(errName)}, Decs: n.Decs})
			}
			return false
		}
		return true
	}, nil)
	var rets []dst.Expr
	for _, nm := range names {
		rets = append(rets, dst.NewIdent(nm))
	}
	return []dst.Stmt{&dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(errName)}, Tok: token.ASSIGN, Rhs: []dst.Expr{runCall}},
		&dst.ReturnStmt{Results: rets}}
}

type errManual string

func (e errManual) Error() string { return string(e) }

// sameHandleMethod: a catalog write reached through an interface the
// handle type implements is the same call for this purpose.
func sameHandleMethod(fn *types.Func, name string) bool {
	return strings.HasSuffix(name, ")."+fn.Name()) && strings.Contains(name, types.TypeString(fn.Signature().Recv().Type(), nil))
}

func hasGoStmt(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.GoStmt:
			found = true
		case *ast.FuncLit:
			return false // a closure's goroutines are its own
		}
		return !found
	})
	return found
}

func ctxFuncType(name string) *dst.FuncType {
	return &dst.FuncType{
		Params:  &dst.FieldList{List: []*dst.Field{{Names: []*dst.Ident{dst.NewIdent(name)}, Type: &dst.Ident{Name: "Context", Path: "context"}}}},
		Results: &dst.FieldList{List: []*dst.Field{{Type: dst.NewIdent("error")}}},
	}
}

// accessorMethods are the methods the unit's handle types have (gorm: all).
var accessorMethods = map[string]map[string]bool{
	"SQL":   {"ExecContext": true, "QueryContext": true, "QueryRowContext": true, "PrepareContext": true},
	"Pgx":   {"Exec": true, "Query": true, "QueryRow": true},
	"PgxV4": {"Exec": true, "Query": true, "QueryRow": true},
	"Sqlx": {"ExecContext": true, "QueryContext": true, "QueryxContext": true, "QueryRowxContext": true, "GetContext": true,
		"SelectContext": true, "NamedExecContext": true, "NamedQueryContext": true, "Rebind": true},
}

// handleObj is the variable or field a handle expression names.
func handleObj(info *types.Info, e ast.Expr) types.Object {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[x]
	case *ast.SelectorExpr:
		return info.Uses[x.Sel]
	}
	return nil
}

// chainEnd finds the call that ends call's result chain (call.Err(),
// call.FirstErr()) in body, nil when the result is used another way.
func chainEnd(body *ast.BlockStmt, call *ast.CallExpr, chain []string) ast.Expr {
	var end ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || end != nil {
			return end == nil
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if ok && ast.Unparen(sel.X) == call {
			for _, m := range chain {
				if sel.Sel.Name == m {
					end = c
				}
			}
		}
		return true
	})
	return end
}

// handleParent finds, down a call's receiver chain, the selector whose X is
// the handle itself (not a call): r.db.ExecContext(...) -> r.db.ExecContext;
// r.db.WithContext(ctx).Create(x) -> r.db.WithContext.
func handleParent(call *ast.CallExpr) *ast.SelectorExpr {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	for ok {
		inner, isCall := ast.Unparen(sel.X).(*ast.CallExpr)
		if !isCall {
			switch ast.Unparen(sel.X).(type) {
			case *ast.SelectorExpr, *ast.Ident:
				return sel
			}
			return nil
		}
		sel, ok = ast.Unparen(inner.Fun).(*ast.SelectorExpr)
	}
	return nil
}

// replaceCall puts repl where call is (the call keeps its decorations).
func replaceCall(call, repl *dst.CallExpr) {
	decs := call.Decs
	*call = *repl
	call.Decs = decs
}

// messageLit is outbox.Message{AggregateType: ..., ...} for one message,
// a field a line (the in-function strategies and the unit-of-work guard).
func messageLit(outboxPkg string, m message) *dst.CompositeLit {
	elts := []dst.Expr{kv("AggregateType", m.aggType), kv("AggregateID", m.aggID), kv("EventType", m.eventType)}
	if m.payload != nil {
		elts = append(elts, kv("Payload", m.payload))
	}
	if m.fields != nil {
		elts = append(elts, kv("StreamFields", m.fields))
		if m.maxLen != nil {
			elts = append(elts, kv("StreamMaxLen", m.maxLen))
		}
		if m.approx != nil {
			elts = append(elts, kv("StreamApprox", m.approx))
		}
	}
	if m.headersExpr != nil {
		elts = append(elts, kv("Headers", m.headersExpr))
	} else if len(m.headers) > 0 {
		var hs []dst.Expr
		for _, h := range m.headers {
			e := &dst.KeyValueExpr{Key: strLit(h.key), Value: h.value}
			e.Decs.Before = dst.NewLine
			e.Decs.After = dst.NewLine
			hs = append(hs, e)
		}
		elts = append(elts, kv("Headers", &dst.CompositeLit{Type: &dst.MapType{Key: dst.NewIdent("string"), Value: dst.NewIdent("string")}, Elts: hs}))
	}
	for _, e := range elts {
		e.Decorations().Before = dst.NewLine
		e.Decorations().After = dst.NewLine
	}
	return &dst.CompositeLit{Type: &dst.Ident{Name: "Message", Path: outboxPkg}, Elts: elts}
}

// render prints an edited file and the lines of its Run calls.
func (uf *unitFile) render(pkgPath, outboxPkg string) ([]byte, []int, error) {
	print := func() ([]byte, error) {
		restorer := decorator.NewRestorerWithImports(pkgPath, uf.resolver(outboxPkg))
		rf := restorer.FileRestorer()
		keepAliases(rf, uf.file)
		af, err := rf.RestoreFile(uf.df)
		if err != nil {
			return nil, fmt.Errorf("restore %s: %w", uf.name, err)
		}
		var buf bytes.Buffer
		if err := format.Node(&buf, restorer.Fset, af); err != nil {
			return nil, fmt.Errorf("print %s: %w", uf.name, err)
		}
		return format.Source(buf.Bytes())
	}
	// a Run may carry several findings: mark each identifier once
	index := map[*dst.Ident]int{}
	for _, m := range uf.marks {
		if _, ok := index[m]; !ok {
			index[m] = len(index)
			m.Name = fmt.Sprintf("RunOBXMARK%dX", index[m])
		}
	}
	marked, err := print()
	for _, m := range uf.marks {
		m.Name = "Run"
	}
	if err != nil {
		return nil, nil, err
	}
	lines := make([]int, len(uf.marks))
	for n, text := range strings.Split(string(marked), "\n") {
		for i, m := range uf.marks {
			if strings.Contains(text, fmt.Sprintf("RunOBXMARK%dX", index[m])) {
				lines[i] = n + 1
			}
		}
	}
	out, err := print()
	return out, lines, err
}

// fixUnits runs the unit-of-work rewrite over the findings whose publish
// goes through a wrapper. A file the per-function strategies edited is
// edited further on the same tree (pending) and rendered once; a finding
// whose functions they edited is left to a second run (ReasonAgain).
func fixUnits(res *Result, pkgs []*packages.Package, findings []dualwrite.Finding, pending map[*ast.File]*pendingFile, opts Options) error {
	if !opts.Accessors["SQL"] && !opts.Accessors["Gorm"] && !opts.Accessors["Pgx"] && !opts.Accessors["PgxV4"] && !opts.Accessors["Sqlx"] {
		for _, f := range findings {
			res.manual(f, "the publish goes through "+shortName(f.Publish.Via[len(f.Publish.Via)-1])+", not a broker client in this function, and the outbox writer has no unit of work for this driver",
				"give that publisher an outbox-backed implementation that calls outbox.Insert on the caller's transaction, or insert the outbox row here by hand")
		}
		return nil
	}
	s := newUnitSession(pkgs, opts)
	s.pending = pending
	for _, f := range findings {
		apply, why := s.plan(f)
		if why != "" {
			res.manual(f, why, "run the function in outbox.Run, write through outbox.SQL(ctx, db) in the repository, and guard the broker call in the publisher with outbox.Enqueue")
			continue
		}
		if err := apply(); err != nil {
			if m, isManual := err.(errManual); isManual {
				res.manual(f, string(m), "")
				continue
			}
			return err
		}
	}
	// groups: the files linked through rewritten findings (union-find)
	parent := map[*ast.File]*ast.File{}
	var find func(f *ast.File) *ast.File
	find = func(f *ast.File) *ast.File {
		if p, ok := parent[f]; ok && p != f {
			r := find(p)
			parent[f] = r
			return r
		}
		parent[f] = f
		return f
	}
	for _, fs := range s.touched {
		for _, f := range fs[1:] {
			parent[find(f)] = find(fs[0])
		}
	}
	groupOf := map[*ast.File]int{}
	next := 1
	for _, e := range res.Files {
		if e.Group >= next {
			next = e.Group + 1
		}
	}
	for _, file := range s.order {
		uf := s.files[file]
		root := find(file)
		if groupOf[root] == 0 {
			groupOf[root] = next
			next++
		}
		if uf.shared != nil {
			// the per-function strategies' edits and the unit's, rendered once
			if err := uf.shared.finish(res, uf.marks, uf.replaced, groupOf[root]); err != nil {
				return err
			}
			continue
		}
		before, err := os.ReadFile(uf.name)
		if err != nil {
			return fmt.Errorf("read %s: %w", uf.name, err)
		}
		after, lines, err := uf.render(uf.pkg.PkgPath, opts.OutboxPkg)
		if err != nil {
			return err
		}
		if len(uf.replaced) == 0 && bytes.Equal(after, before) {
			continue // decorated for a finding left manual while it was applied
		}
		edit := &FileEdit{Path: uf.name, PkgPath: uf.pkg.PkgPath, Before: before, After: after, Group: groupOf[root]}
		for i, r := range uf.replaced {
			r.After = Position{File: uf.name, Line: lines[i]}
			r.Behaviour = append(Behaviour(r.Strategy, opts.DB), r.extra...)
			edit.Replaced = append(edit.Replaced, r)
		}
		res.Files = append(res.Files, edit)
	}
	return nil
}

// droppedResult returns the statement `_, err := call` (or `=`; `_, _, err`
// for sarama's partition and offset) when call's results are (T..., error),
// every T is dropped and err is an error variable: the only use of the
// result is its error.
func droppedResult(info *types.Info, body *ast.BlockStmt, call ast.Expr) *ast.AssignStmt {
	tup, ok := info.TypeOf(call).(*types.Tuple)
	if !ok || tup.Len() < 2 || !types.Identical(tup.At(tup.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return nil
	}
	var found *ast.AssignStmt
	ast.Inspect(body, func(n ast.Node) bool {
		a, ok := n.(*ast.AssignStmt)
		if !ok || len(a.Rhs) != 1 || a.Rhs[0] != call || len(a.Lhs) != tup.Len() {
			return found == nil
		}
		for _, l := range a.Lhs[:len(a.Lhs)-1] {
			if blank, ok := l.(*ast.Ident); !ok || blank.Name != "_" {
				return false
			}
		}
		if errID, ok := a.Lhs[len(a.Lhs)-1].(*ast.Ident); ok && errID.Name != "_" {
			found = a
		}
		return false
	})
	return found
}

// resolver names the packages the restored file imports.
func (uf *unitFile) resolver(outboxPkg string) mapResolver {
	return importNames(uf.pkg.Types, outboxPkg, outboxPkg[strings.LastIndex(outboxPkg, "/")+1:])
}

// keepAliases keeps the file's own import names (mgclients "…/clients"):
// the restorer would otherwise name each import by its package name, which
// a local variable of that name may shadow.
func keepAliases(rf *decorator.FileRestorer, file *ast.File) {
	for _, imp := range file.Imports {
		if imp.Name == nil || imp.Name.Name == "_" || imp.Name.Name == "." {
			continue
		}
		if p, err := strconv.Unquote(imp.Path.Value); err == nil {
			rf.Alias[p] = imp.Name.Name
		}
	}
}

// noKeyNote is the behaviour note of a site whose wrapper's messages carry
// no key: every one is the same aggregate, the destination.
func noKeyNote(dest string) string {
	if dest == "" {
		dest = "the destination"
	}
	return "the publisher's messages carry no key: each outbox row's aggregate is its destination (" + dest + "), so the relay keeps one order for every message to it, and a message it cannot publish holds back all the later ones there (a dead letter until it is replayed, with the relay's default --on-dead-letter block); set AggregateID to the entity's id where order per entity is enough"
}

// dstSrc is the source of a simple expression (literals, names, selectors,
// concatenations) for a note, "" for anything else.
func dstSrc(e dst.Expr) string {
	switch x := e.(type) {
	case *dst.BasicLit:
		return x.Value
	case *dst.Ident:
		return x.Name
	case *dst.SelectorExpr:
		if l := dstSrc(x.X); l != "" {
			return l + "." + x.Sel.Name
		}
	case *dst.BinaryExpr:
		l, r := dstSrc(x.X), dstSrc(x.Y)
		if l != "" && r != "" {
			return l + " " + x.Op.String() + " " + r
		}
	}
	return ""
}
