package rewrite

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// fileRewriter holds one file's syntax in both forms (ast for analysis with
// types, dst for editing) and the names it may use.
type fileRewriter struct {
	pkg         *packages.Package
	info        *types.Info
	file        *ast.File
	dec         *decorator.Decorator
	df          *dst.File
	opts        Options
	parent      map[ast.Node]ast.Node
	outboxAlias string // import alias for the outbox package when "outbox" is taken
	outboxName  string // the outbox package's name
	insertParam types.Type
	usedNames   map[string]bool // names this rewriter introduced per function
}

func newFileRewriter(pkg *packages.Package, file *ast.File, dec *decorator.Decorator, df *dst.File, opts Options) *fileRewriter {
	fr := &fileRewriter{pkg: pkg, info: pkg.TypesInfo, file: file, dec: dec, df: df, opts: opts,
		parent: map[ast.Node]ast.Node{}, outboxName: "outbox", usedNames: map[string]bool{}}
	var stack []ast.Node
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if len(stack) > 0 {
			fr.parent[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	// The outbox package's real name and Insert signature, when loaded.
	if ob := opts.outboxTypes; ob != nil {
		fr.outboxName = ob.Name()
		if ins, ok := ob.Scope().Lookup("Insert").(*types.Func); ok {
			if sig := ins.Type().(*types.Signature); sig.Params().Len() >= 2 {
				fr.insertParam = sig.Params().At(1).Type()
			}
		}
	}
	// "outbox" taken by something else in this file: import under an alias.
	taken := false
	for _, imp := range file.Imports {
		path := strings.Trim(imp.Path.Value, `"`)
		name := ""
		if imp.Name != nil {
			name = imp.Name.Name
		} else if ip := pkg.Imports[path]; ip != nil && ip.Types != nil {
			name = ip.Types.Name()
		}
		if name == fr.outboxName && path != opts.OutboxPkg {
			taken = true
		}
	}
	if pkg.Types.Scope().Lookup(fr.outboxName) != nil {
		taken = true
	}
	for id, obj := range fr.info.Defs {
		if obj != nil && id.Name == fr.outboxName && id.Pos() >= file.Pos() && id.Pos() < file.End() {
			if _, isPkg := obj.(*types.PkgName); !isPkg {
				taken = true
			}
		}
	}
	if taken {
		fr.outboxAlias = fr.outboxName + "pkg"
	}
	return fr
}

// resolver names every package the restored file may reference: the real
// names of loaded imports (kafka-go is kafka, pgx/v5 is pgx), never guesses.
func (fr *fileRewriter) resolver() mapResolver {
	return importNames(fr.pkg.Types, fr.opts.OutboxPkg, fr.outboxName)
}

// importNames maps every package pkg reaches to its name, and the outbox
// writer's path to outboxName (it may not be loaded yet).
func importNames(pkg *types.Package, outboxPkg, outboxName string) mapResolver {
	m := mapResolver{"context": "context", "fmt": "fmt"}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if _, ok := m[p.Path()]; ok && p.Path() != "context" && p.Path() != "fmt" {
			return
		}
		m[p.Path()] = p.Name()
		for _, ip := range p.Imports() {
			walk(ip)
		}
	}
	walk(pkg)
	m[outboxPkg] = outboxName
	return m
}

type mapResolver map[string]string

func (m mapResolver) ResolvePackage(path string) (string, error) {
	if n, ok := m[path]; ok {
		return n, nil
	}
	// Not loaded (cannot happen for code that type-checked): fail loudly
	// rather than guess a name from the path.
	return "", errUnknownPackage(path)
}

type errUnknownPackage string

func (e errUnknownPackage) Error() string { return "rewrite: no package name known for " + string(e) }

// plan is a checked edit of one finding; apply only mutates the dst tree.
type plan struct {
	apply    func()
	inserts  []*dst.CallExpr
	strategy string
}

// ---- syntax helpers ----

func (fr *fileRewriter) d(n ast.Node) dst.Node {
	dn, ok := fr.dec.Dst.Nodes[n]
	if !ok {
		panic("rewrite: node not decorated")
	}
	return dn
}

func (fr *fileRewriter) ds(s ast.Stmt) dst.Stmt { return fr.d(s).(dst.Stmt) }

// enclosingStmt returns the statement directly in a statement list that holds n.
func (fr *fileRewriter) enclosingStmt(n ast.Node) ast.Stmt {
	for cur := n; cur != nil; cur = fr.parent[cur] {
		s, ok := cur.(ast.Stmt)
		if !ok {
			continue
		}
		switch fr.parent[s].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return s
		}
	}
	return nil
}

// enclosingFunc returns the innermost FuncDecl or FuncLit holding n.
func (fr *fileRewriter) enclosingFunc(n ast.Node) ast.Node {
	for cur := fr.parent[n]; cur != nil; cur = fr.parent[cur] {
		switch cur.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return cur
		}
	}
	return nil
}

func funcParts(fn ast.Node) (*ast.FuncType, *ast.BlockStmt) {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Type, fn.Body
	case *ast.FuncLit:
		return fn.Type, fn.Body
	}
	return nil, nil
}

func (fr *fileRewriter) signature(fn ast.Node) *types.Signature {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := fr.info.Defs[fn.Name].(*types.Func); ok {
			return obj.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		if s, ok := fr.info.TypeOf(fn).(*types.Signature); ok {
			return s
		}
	}
	return nil
}

// stmtList returns the statement list holding s, or nil.
func stmtList(parent ast.Node) []ast.Stmt {
	switch p := parent.(type) {
	case *ast.BlockStmt:
		return p.List
	case *ast.CaseClause:
		return p.Body
	case *ast.CommClause:
		return p.Body
	}
	return nil
}

// childIn returns the statement of block that contains n (n itself or an ancestor).
func (fr *fileRewriter) childIn(block ast.Node, n ast.Node) ast.Stmt {
	for cur := n; cur != nil; cur = fr.parent[cur] {
		if fr.parent[cur] == block {
			if s, ok := cur.(ast.Stmt); ok {
				return s
			}
		}
	}
	return nil
}

// commonBlock returns the innermost statement list (block or clause) that
// contains every node.
func (fr *fileRewriter) commonBlock(nodes ...ast.Node) ast.Node {
	var chains [][]ast.Node
	for _, n := range nodes {
		var c []ast.Node
		for cur := n; cur != nil; cur = fr.parent[cur] {
			switch cur.(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
				c = append(c, cur)
			}
		}
		chains = append(chains, c)
	}
	for _, cand := range chains[0] {
		all := true
		for _, c := range chains[1:] {
			found := false
			for _, b := range c {
				if b == cand {
					found = true
				}
			}
			all = all && found
		}
		if all {
			return cand
		}
	}
	return nil
}

// dstList finds the dst statement list holding s anywhere in root.
func dstList(root dst.Node, s dst.Stmt) *[]dst.Stmt {
	var out *[]dst.Stmt
	dst.Inspect(root, func(n dst.Node) bool {
		if out != nil {
			return false
		}
		var l *[]dst.Stmt
		switch n := n.(type) {
		case *dst.BlockStmt:
			l = &n.List
		case *dst.CaseClause:
			l = &n.Body
		case *dst.CommClause:
			l = &n.Body
		}
		if l != nil {
			for _, x := range *l {
				if x == s {
					out = l
					return false
				}
			}
		}
		return true
	})
	return out
}

func (fr *fileRewriter) replace(old dst.Stmt, with ...dst.Stmt) {
	l := dstList(fr.df, old)
	if l == nil {
		panic("rewrite: statement to replace not found")
	}
	for i, x := range *l {
		if x == old {
			if len(with) > 0 {
				with[0].Decorations().Start = append(old.Decorations().Start, with[0].Decorations().Start...)
				with[0].Decorations().Before = old.Decorations().Before
				with[len(with)-1].Decorations().After = old.Decorations().After
			}
			n := append([]dst.Stmt{}, (*l)[:i]...)
			n = append(n, with...)
			n = append(n, (*l)[i+1:]...)
			*l = n
			return
		}
	}
}

func (fr *fileRewriter) remove(old dst.Stmt) {
	l := dstList(fr.df, old)
	if l == nil {
		return
	}
	for i, x := range *l {
		if x == old {
			*l = append((*l)[:i:i], (*l)[i+1:]...)
			return
		}
	}
}

func (fr *fileRewriter) insert(anchor dst.Stmt, after bool, with ...dst.Stmt) {
	l := dstList(fr.df, anchor)
	if l == nil {
		panic("rewrite: anchor statement not found")
	}
	for i, x := range *l {
		if x == anchor {
			at := i
			if after {
				at = i + 1
			}
			for _, w := range with {
				w.Decorations().Before = dst.NewLine
			}
			n := append([]dst.Stmt{}, (*l)[:at]...)
			n = append(n, with...)
			n = append(n, (*l)[at:]...)
			*l = n
			return
		}
	}
}

// callName returns the full name of a call's static callee ("" if none).
func (fr *fileRewriter) callName(call *ast.CallExpr) string {
	if f, ok := typeutil.Callee(fr.info, call).(*types.Func); ok {
		return f.FullName()
	}
	return ""
}

func (fr *fileRewriter) objOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return fr.info.ObjectOf(e)
	case *ast.SelectorExpr:
		return fr.info.ObjectOf(e.Sel)
	}
	return nil
}

// identsIn returns the objects referenced in n (skipping the subtree skip).
func (fr *fileRewriter) identsIn(n ast.Node, skip ast.Node) map[types.Object]bool {
	out := map[types.Object]bool{}
	ast.Inspect(n, func(x ast.Node) bool {
		if x == nil || (skip != nil && x == skip) {
			return false
		}
		if id, ok := x.(*ast.Ident); ok {
			if obj := fr.info.Uses[id]; obj != nil {
				out[obj] = true
			}
		}
		return true
	})
	return out
}

// definesAny reports whether s declares one of objs.
func (fr *fileRewriter) definesAny(s ast.Stmt, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(s, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if obj := fr.info.Defs[id]; obj != nil && objs[obj] {
				found = true
			}
		}
		return !found
	})
	return found
}

// touchesDB reports whether n calls a database API or uses one of objs
// (transaction or handle variables).
func (fr *fileRewriter) touchesDB(n ast.Node, objs ...types.Object) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			if f, ok := typeutil.Callee(fr.info, x).(*types.Func); ok && f.Pkg() != nil && dbPackages[f.Pkg().Path()] {
				found = true
			}
		case *ast.Ident:
			for _, o := range objs {
				if o != nil && fr.info.Uses[x] == o {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// hasControl reports whether s contains a return, branch, go or defer
// statement outside nested function literals (moving it would change flow).
func hasControl(s ast.Node) bool {
	found := false
	ast.Inspect(s, func(x ast.Node) bool {
		switch x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt, *ast.GoStmt, *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}

func isErrorType(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

func isContext(t types.Type) bool {
	return t != nil && types.TypeString(t, nil) == "context.Context"
}

// nameFree reports whether name is not declared anywhere in fn nor at
// package/file scope (so a new variable with it shadows nothing).
func (fr *fileRewriter) nameFree(fn ast.Node, name string) bool {
	if fr.pkg.Types.Scope().Lookup(name) != nil || types.Universe.Lookup(name) != nil {
		return false
	}
	for _, imp := range fr.file.Imports {
		if imp.Name != nil && imp.Name.Name == name {
			return false
		}
		if ip := fr.pkg.Imports[strings.Trim(imp.Path.Value, `"`)]; ip != nil && ip.Types != nil && ip.Types.Name() == name {
			return false
		}
	}
	free := true
	ast.Inspect(fn, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && id.Name == name && fr.info.Defs[id] != nil {
			free = false
		}
		return free
	})
	return free
}

func (fr *fileRewriter) freshName(fn ast.Node, names ...string) string {
	for _, n := range names {
		if fr.nameFree(fn, n) && !fr.usedNames[fnKey(fn)+n] {
			return n
		}
	}
	return ""
}

func fnKey(fn ast.Node) string { return strconv.Itoa(int(fn.Pos())) + ":" }
