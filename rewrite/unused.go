package rewrite

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"strings"
)

// unusedParams names the parameters of the function around pos in before
// that its body used and the rewritten function (same name and receiver in
// after) no longer uses: typically the broker client that served only the
// publish (w *kafka.Writer). The compiler does not flag an unused
// parameter, so without this note it stays, unmentioned.
func unusedParams(fset *token.FileSet, file *ast.File, pos token.Pos, after []byte) []string {
	var fd *ast.FuncDecl
	for _, d := range file.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && f.Body != nil && f.Pos() <= pos && pos < f.End() {
			fd = f
		}
	}
	if fd == nil {
		return nil
	}
	fa, err := parser.ParseFile(token.NewFileSet(), "", after, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var fdA *ast.FuncDecl
	for _, d := range fa.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && f.Body != nil && f.Name.Name == fd.Name.Name && recvType(f) == recvType(fd) {
			fdA = f
		}
	}
	if fdA == nil {
		return nil
	}
	var notes []string
	for _, field := range fd.Type.Params.List {
		for _, n := range field.Names {
			if n.Name == "_" || !uses(fd.Body, n.Name) || uses(fdA.Body, n.Name) {
				continue
			}
			var typ strings.Builder
			_ = printer.Fprint(&typ, fset, field.Type)
			notes = append(notes, fmt.Sprintf("parameter %s (%s) of %s is no longer used, it served only the publish: remove it (and the callers' argument) or keep it for a later change",
				n.Name, typ.String(), fd.Name.Name))
		}
	}
	return notes
}

// uses reports whether body refers to name, other than as a selected
// field or method (x.name).
func uses(body *ast.BlockStmt, name string) bool {
	found := false
	sel := map[*ast.Ident]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.SelectorExpr:
			sel[x.Sel] = true
		case *ast.KeyValueExpr:
			if id, ok := x.Key.(*ast.Ident); ok {
				sel[id] = true // a struct literal's field name
			}
		case *ast.Ident:
			if x.Name == name && !sel[x] {
				found = true
			}
		}
		return true
	})
	return found
}

func recvType(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	var b strings.Builder
	_ = printer.Fprint(&b, token.NewFileSet(), fd.Recv.List[0].Type)
	return b.String()
}
