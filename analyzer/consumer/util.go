package consumer

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// isInboxPkg reports whether p is an inbox package (generated or the
// team's own): calling into it means the handler goes through the inbox.
func isInboxPkg(p *types.Package) bool {
	if p == nil {
		return false
	}
	return p.Name() == "inbox" || strings.HasSuffix(p.Path(), "/inbox")
}

// isInboxGlue reports whether fn is consumer glue of an inbox package: it
// takes a broker client or a channel of deliveries (inbox.KafkaGo(ctx, r),
// inbox.AMQP(ctx, deliveries)).
func isInboxGlue(fn *types.Func) bool {
	if !isInboxPkg(fn.Pkg()) {
		return false
	}
	for p := range fn.Signature().Params().Variables() {
		t := p.Type()
		if ch, ok := t.Underlying().(*types.Chan); ok {
			t = ch.Elem()
		}
		if isBrokerType(t) {
			return true
		}
	}
	return false
}

// isBrokerType reports whether t (or what it points to) is a type declared
// in a broker client package.
func isBrokerType(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	path := n.Obj().Pkg().Path()
	for _, b := range brokerPackages {
		if path == b || strings.HasPrefix(path, b+"/") {
			return true
		}
	}
	return false
}

// returnsSQLResult reports whether fn returns database/sql.Result: home-made
// DB wrappers (go-zero's sqlx.SqlConn and the like) write through it.
func returnsSQLResult(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return false
	}
	for v := range sig.Results().Variables() {
		if n, ok := types.Unalias(v.Type()).(*types.Named); ok && n.Obj().Pkg() != nil &&
			n.Obj().Pkg().Path() == "database/sql" && n.Obj().Name() == "Result" {
			return true
		}
	}
	return false
}

// enclosingBody is the body of the innermost function literal or
// declaration on the stack.
func enclosingBody(stack []ast.Node) *ast.BlockStmt {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			return n.Body
		case *ast.FuncDecl:
			return n.Body
		}
	}
	return nil
}

// enclosingFunc is the full name of the declared function on the stack.
func enclosingFunc(pass *analysis.Pass, stack []ast.Node) string {
	for i := len(stack) - 1; i >= 0; i-- {
		if fd, ok := stack[i].(*ast.FuncDecl); ok {
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				return fn.FullName()
			}
		}
	}
	return ""
}

// enclosingDeclOf finds the function declaration holding pos.
func enclosingDeclOf(pass *analysis.Pass, pos token.Pos) ast.Node {
	for _, f := range pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			for _, d := range f.Decls {
				if d.Pos() <= pos && pos < d.End() {
					return d
				}
			}
		}
	}
	return nil
}

// shortName trims import paths from a full name:
// "(*example.com/pay.Client).Charge" -> "pay.Client.Charge".
func shortName(full string) string {
	s := strings.NewReplacer("(*", "", "(", "", ")", "").Replace(full)
	if i := strings.LastIndex(s, "/"); i >= 0 {
		s = s[i+1:]
	}
	return s
}

func shortFile(name string) string { return filepath.Base(name) }

func unquote(lit string) (string, error) { return strconv.Unquote(lit) }
