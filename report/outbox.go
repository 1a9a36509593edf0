package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/outboxify/outboxify/templates"
)

var (
	// createOutbox matches the migration statement creating the outbox table.
	createOutbox = regexp.MustCompile("(?im)^\\s*CREATE\\s+TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?[`\"]?(\\w+[`\"]?\\.[`\"]?)?outbox[`\"]?\\s*\\(")
	// insertOutbox matches SQL that inserts an outbox row by hand.
	insertOutbox = regexp.MustCompile("(?is)\\bINSERT\\s+INTO\\s+[`\"]?(\\w+[`\"]?\\.[`\"]?)?outbox[`\"]?\\s*\\(")
	// writerDecl finds the outbox writer package: package outbox with Insert.
	writerPkg  = regexp.MustCompile(`(?m)^package outbox\b`)
	writerFunc = regexp.MustCompile(`(?m)^func Insert\(`)
)

// WriteSite is one place that writes an outbox row.
type WriteSite struct {
	Location
	Func string `json:"func"` // enclosing function ("file.go:line" for closures: func literal position)
	Tx   string `json:"tx"`   // the transaction handle expression
	Kind string `json:"kind"` // "writer" (outbox.Insert) or "sql" (INSERT INTO outbox)
	// AggregateType is the constant aggregate type of the message, when
	// the call spells it out.
	AggregateType string `json:"aggregate_type,omitempty"`
}

// migration finds the migration that creates the outbox table (the up
// file, not a down file).
// The migration generate wrote carries a marker line; it wins over a
// schema dump (sqlc's schema.sql) that also creates the table.
func (t *tree) migration() (string, bool) {
	all := t.findAll(func(f string) bool { return isSQL(f) && !strings.HasSuffix(f, ".down.sql") }, createOutbox, 0)
	for _, m := range all {
		if strings.Contains(t.read(m.File), migrationMarker) {
			return m.File, true
		}
	}
	if len(all) == 0 {
		return "", false
	}
	return all[0].File, true
}

// migrationMarker is the line generate puts in the outbox migration.
const migrationMarker = "-- outboxify:migration outbox"

// writerDir finds the directory of the generated outbox writer package.
func (t *tree) writerDir() string {
	for _, f := range t.files {
		if isGo(f) && writerFunc.MatchString(t.read(f)) && writerPkg.MatchString(t.read(f)) {
			return path.Dir(f)
		}
	}
	return ""
}

// outboxWrites finds the call sites that write outbox rows and counts the
// transactions they belong to: sites in the same function on the same
// handle are one transaction.
func (t *tree) outboxWrites(module, writerDir string) (sites []WriteSite, transactions int) {
	writerPath := ""
	if writerDir != "" {
		writerPath = module + "/" + writerDir
	}
	fset := token.NewFileSet()
	groups := map[string]bool{}
	for _, f := range t.files {
		if !isGo(f) || (writerDir != "" && path.Dir(f) == writerDir) {
			continue
		}
		src := t.read(f)
		if !strings.Contains(src, "Insert") && !strings.Contains(src, "Enqueue") && !insertOutbox.MatchString(src) {
			continue
		}
		file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
		if err != nil {
			continue // not ours to judge: scan reports package errors
		}
		alias := ""
		for _, imp := range file.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if writerPath != "" && p == writerPath {
				alias = "outbox"
				if imp.Name != nil {
					alias = imp.Name.Name
				}
			}
		}
		consts := stringConsts(file)
		var stack []ast.Node // enclosing functions
		var visit func(n ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl, *ast.FuncLit:
				stack = append(stack, n)
				ast.Inspect(funcBody(n), visit)
				stack = stack[:len(stack)-1]
				return false
			case *ast.CallExpr:
				site, ok := outboxCall(n, alias, consts)
				if !ok || len(stack) == 0 {
					return true
				}
				fn := stack[len(stack)-1]
				p := fset.Position(n.Pos())
				site.Location = Location{File: f, Line: p.Line}
				site.Func = funcName(fset, fn)
				sites = append(sites, site)
				groups[site.File+"\x00"+site.Func+"\x00"+site.Tx] = true
			}
			return true
		}
		ast.Inspect(file, visit)
	}
	sort.SliceStable(sites, func(i, j int) bool {
		if sites[i].File != sites[j].File {
			return sites[i].File < sites[j].File
		}
		return sites[i].Line < sites[j].Line
	})
	return sites, len(groups)
}

func funcBody(n ast.Node) ast.Node {
	switch n := n.(type) {
	case *ast.FuncDecl:
		if n.Body == nil {
			return &ast.BlockStmt{}
		}
		return n.Body
	case *ast.FuncLit:
		return n.Body
	}
	return n
}

func funcName(fset *token.FileSet, n ast.Node) string {
	switch n := n.(type) {
	case *ast.FuncDecl:
		if n.Recv != nil && len(n.Recv.List) == 1 {
			return recvName(n.Recv.List[0].Type) + "." + n.Name.Name
		}
		return n.Name.Name
	case *ast.FuncLit:
		p := fset.Position(n.Pos())
		return "func literal at " + path.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
	}
	return ""
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "(*" + recvName(e.X) + ")"
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

// isWriterFunc reports whether name is one of the generated writer's
// functions: Insert for the default driver, Insert<Driver> for the others.
func isWriterFunc(name string) bool {
	if name == "Insert" {
		return true
	}
	for _, f := range templates.WriterFuncs {
		if name == f {
			return true
		}
	}
	return false
}

// outboxCall recognizes outbox.Insert(ctx, tx, ...) (or a per-driver
// writer such as outbox.InsertPgx) and
// h.ExecContext(ctx, "INSERT INTO outbox ...", ...).
func outboxCall(call *ast.CallExpr, alias string, consts map[string]string) (WriteSite, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return WriteSite{}, false
	}
	if x, ok := sel.X.(*ast.Ident); ok && alias != "" && x.Name == alias && sel.Sel.Name == "Enqueue" && len(call.Args) == 3 {
		// the unit of work's guard: the row goes on the unit's transaction
		return WriteSite{Tx: "unit of work", Kind: "writer", AggregateType: aggregateType(call.Args[1], consts)}, true
	}
	if x, ok := sel.X.(*ast.Ident); ok && alias != "" && x.Name == alias && isWriterFunc(sel.Sel.Name) {
		tx := ""
		if len(call.Args) >= 2 {
			tx = exprString(call.Args[1])
		}
		site := WriteSite{Tx: tx, Kind: "writer"}
		if len(call.Args) >= 3 {
			site.AggregateType = aggregateType(call.Args[2], consts)
		}
		return site, true
	}
	for _, a := range call.Args {
		s := ""
		switch a := ast.Unparen(a).(type) {
		case *ast.BasicLit:
			if a.Kind == token.STRING {
				s, _ = strconv.Unquote(a.Value)
			}
		case *ast.Ident:
			s = consts[a.Name]
		}
		if s != "" && insertOutbox.MatchString(s) {
			return WriteSite{Tx: exprString(sel.X), Kind: "sql"}, true
		}
	}
	return WriteSite{}, false
}

// stringConsts collects the file's string constants by name (sqlc puts its
// queries in package-level constants).
func stringConsts(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						out[n.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	return out
}

func exprString(e ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e ast.Expr) {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		b.WriteString(e.Name)
	case *ast.SelectorExpr:
		writeExpr(b, e.X)
		b.WriteString("." + e.Sel.Name)
	case *ast.StarExpr:
		b.WriteString("*")
		writeExpr(b, e.X)
	case *ast.UnaryExpr:
		b.WriteString(e.Op.String())
		writeExpr(b, e.X)
	case *ast.CallExpr:
		writeExpr(b, e.Fun)
		b.WriteString("(...)")
	case *ast.IndexExpr:
		writeExpr(b, e.X)
		b.WriteString("[...]")
	default:
		b.WriteString("?")
	}
}

// aggregateType reads AggregateType: "..." from an outbox.Message literal.
func aggregateType(e ast.Expr, consts map[string]string) string {
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = u.X
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return ""
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if k, isIdent := kv.Key.(*ast.Ident); !ok || !isIdent || k.Name != "AggregateType" {
			continue
		}
		switch v := kv.Value.(type) {
		case *ast.BasicLit:
			s, _ := strconv.Unquote(v.Value)
			return s
		case *ast.Ident:
			return consts[v.Name]
		}
	}
	return ""
}
