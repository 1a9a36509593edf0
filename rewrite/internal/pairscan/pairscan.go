// Package pairscan is a small stand-in for the dual-write analyzer: it pairs
// each publish call that rewrite knows how to map with the nearest database
// write in the same function (or one call away in the same package) and
// reports them as dualwrite.Findings. The rewrite tests use it so that they
// exercise the rewriter on findings of the real shape without depending on
// the analyzer's own fixtures; `outboxify fix` uses the analyzer.
package pairscan

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// Publishers is the set of publish APIs to look for (full names).
type Publishers func(fullName string) bool

var handleTypes = []string{
	"*database/sql.DB", "*database/sql.Conn", "*database/sql.Tx",
	"*github.com/jackc/pgx/v5/pgxpool.Pool", "*github.com/jackc/pgx/v5.Conn", "github.com/jackc/pgx/v5.Tx",
	"*github.com/jmoiron/sqlx.DB", "*github.com/jmoiron/sqlx.Tx", "*gorm.io/gorm.DB",
}

var txTypes = []string{"*database/sql.Tx", "github.com/jackc/pgx/v5.Tx", "*github.com/jmoiron/sqlx.Tx"}

var writeMethods = map[string]bool{
	"Exec": true, "ExecContext": true, "NamedExec": true, "NamedExecContext": true, "SendBatch": true, "CopyFrom": true,
	"Create": true, "Save": true, "Update": true, "Updates": true, "Delete": true, "FirstOrCreate": true,
}

// nonSQL are writes to other stores of record.
var nonSQL = map[string]string{
	"(*github.com/aws/aws-sdk-go-v2/service/dynamodb.Client).PutItem": "dynamodb",
	"(*go.mongodb.org/mongo-driver/mongo.Collection).InsertOne":       "mongodb",
	"(*go.mongodb.org/mongo-driver/v2/mongo.Collection).InsertOne":    "mongodb",
}

type event struct {
	call    *ast.CallExpr
	name    string
	publish bool
	tx      bool   // write on a transaction (or inside a gorm Transaction callback)
	store   string // for writes
	via     []string
	at      token.Pos // position in the function (the call site when via)
	async   bool
}

// Find returns the findings of the root packages, in source order.
func Find(pkgs []*packages.Package, isPublish Publishers) []dualwrite.Finding {
	var out []dualwrite.Finding
	for _, pkg := range pkgs {
		writers := map[*types.Func]*event{} // functions of pkg that write directly
		for _, f := range pkg.Syntax {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				for _, e := range events(pkg, fd.Body, isPublish, nil) {
					if !e.publish {
						if obj, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func); ok && writers[obj] == nil {
							writers[obj] = e
						}
					}
				}
			}
		}
		for _, f := range pkg.Syntax {
			name := pkg.Fset.File(f.FileStart).Name()
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				fn, _ := pkg.TypesInfo.Defs[fd.Name].(*types.Func)
				evs := events(pkg, fd.Body, isPublish, writers)
				commits := commitsOf(pkg, fd.Body)
				for _, p := range evs {
					if !p.publish {
						continue
					}
					var w *event
					for _, e := range evs {
						if !e.publish && e.at < p.at {
							w = e
						}
					}
					rule := ""
					if w == nil {
						for _, e := range evs {
							if !e.publish && e.at > p.at {
								w = e
								rule = dualwrite.RuleBeforeWrite
								break
							}
						}
					}
					if w == nil {
						continue
					}
					switch {
					case p.async:
						rule = dualwrite.RuleAsync
					case rule != "":
					case w.tx && slices.ContainsFunc(commits, func(c token.Pos) bool { return c > w.at && c < p.at }):
						rule = dualwrite.RuleAfterCommit
					case w.tx:
						rule = dualwrite.RuleInTx
					default:
						rule = dualwrite.RuleAfterWrite
					}
					fin := dualwrite.Finding{
						Rule:    rule,
						Message: "publish and DB write are not atomic",
						Publish: call(pkg, p.call, p.name, nil),
						Store:   w.store,
					}
					if fn != nil {
						fin.Func = fn.FullName()
					}
					wc := call(pkg, w.call, w.name, w.via)
					fin.Write = &wc
					out = append(out, fin)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Publish.Position, out[j].Publish.Position
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	return out
}

func call(pkg *packages.Package, c *ast.CallExpr, name string, via []string) dualwrite.Call {
	pos := c.Pos()
	if sel, ok := c.Fun.(*ast.SelectorExpr); ok {
		pos = sel.Sel.Pos()
	}
	return dualwrite.Call{Pos: pos, Position: pkg.Fset.Position(pos), Name: name, Via: via}
}

func typeIn(t types.Type, list []string) bool {
	return t != nil && slices.Contains(list, types.TypeString(t, nil))
}

func commitsOf(pkg *packages.Package, body *ast.BlockStmt) []token.Pos {
	var out []token.Pos
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Commit" && typeIn(pkg.TypesInfo.TypeOf(sel.X), txTypes) {
				out = append(out, c.Pos())
			}
			if f, ok := typeutil.Callee(pkg.TypesInfo, c).(*types.Func); ok && f.FullName() == "(*gorm.io/gorm.DB).Transaction" {
				out = append(out, c.End()-1)
			}
		}
		return true
	})
	return out
}

func events(pkg *packages.Package, body *ast.BlockStmt, isPublish Publishers, writers map[*types.Func]*event) []*event {
	var out []*event
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		f, _ := typeutil.Callee(pkg.TypesInfo, c).(*types.Func)
		if f == nil {
			return true
		}
		full := f.FullName()
		inGorm, async := false, false
		for i, a := range stack[:len(stack)-1] {
			switch a := a.(type) {
			case *ast.GoStmt, *ast.DeferStmt, *ast.ForStmt:
				async = true
			case *ast.CallExpr:
				if g, ok := typeutil.Callee(pkg.TypesInfo, a).(*types.Func); ok && g.FullName() == "(*gorm.io/gorm.DB).Transaction" && i+1 < len(stack) {
					if _, lit := stack[i+1].(*ast.FuncLit); lit {
						inGorm = true
					}
				}
			}
		}
		switch {
		case isPublish(full):
			out = append(out, &event{call: c, name: full, publish: true, at: c.Pos(), async: async})
		case nonSQL[full] != "":
			out = append(out, &event{call: c, name: full, store: nonSQL[full], at: c.Pos()})
		default:
			sel, ok := c.Fun.(*ast.SelectorExpr)
			if ok && writeMethods[sel.Sel.Name] && typeIn(pkg.TypesInfo.TypeOf(sel.X), handleTypes) {
				tx := typeIn(pkg.TypesInfo.TypeOf(sel.X), txTypes) || inGorm
				out = append(out, &event{call: c, name: full, tx: tx, store: "sql", at: c.Pos()})
			} else if w := writers[f]; w != nil && writers != nil {
				cp := *w
				cp.via = []string{full}
				cp.at = c.Pos()
				cp.tx = false
				out = append(out, &cp)
			}
		}
		return true
	})
	return out
}
