package scan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// FingerprintVersion names the fingerprint scheme; it changes when the
// scheme does, so an old baseline is told apart instead of mismatched.
const FingerprintVersion = "v1"

// Fingerprint is a finding's identity across line moves and unrelated
// edits: a hash of the rule, the enclosing function (the file when there
// is none), the publish and write call names and the normalised shape of
// the statements holding the publish and the write. Positions are not in
// it, nor are comments, layout or the names of local variables. Two
// identical findings (the same statement twice in one function) share a
// fingerprint: baselines count them.
func Fingerprint(f dualwrite.Finding, file, publishShape, writeShape string) string {
	var b strings.Builder
	b.WriteString(FingerprintVersion)
	for _, part := range []string{f.Rule, fingerprintScope(f, file), f.Publish.Name, writeName(f), publishShape, writeShape} {
		b.WriteByte(0)
		b.WriteString(part)
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:12])
}

func fingerprintScope(f dualwrite.Finding, file string) string {
	if f.Func != "" {
		return f.Func
	}
	return file
}

func writeName(f dualwrite.Finding) string {
	if f.Write == nil {
		return ""
	}
	return f.Write.Name
}

// StmtShape is the normalised shape of the innermost statement in file
// holding pos: its syntax tree as node kinds, with the names of package-
// level objects, fields, methods and types and the values of literals kept,
// and local variables (parameters included) written as "_". Comments and
// layout do not count. Without a statement at pos (a comment, a
// declaration) the shape is "" and the caller falls back on the line.
func StmtShape(file *ast.File, info *types.Info, pos token.Pos) string {
	path, _ := astutil.PathEnclosingInterval(file, pos, pos)
	var stmt ast.Node
	for _, n := range path {
		if s, ok := n.(ast.Stmt); ok {
			if _, block := s.(*ast.BlockStmt); !block {
				stmt = s
				break
			}
		}
	}
	if stmt == nil {
		return ""
	}
	var b strings.Builder
	ast.Inspect(stmt, func(n ast.Node) bool {
		if n == nil {
			b.WriteByte(')')
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			fmt.Fprintf(&b, "%s(", identShape(info, n))
		case *ast.BasicLit:
			fmt.Fprintf(&b, "%s %s(", n.Kind, n.Value)
		case *ast.BinaryExpr:
			fmt.Fprintf(&b, "%s(", n.Op)
		case *ast.UnaryExpr:
			fmt.Fprintf(&b, "u%s(", n.Op)
		case *ast.AssignStmt:
			fmt.Fprintf(&b, "%s(", n.Tok)
		case *ast.IncDecStmt:
			fmt.Fprintf(&b, "%s(", n.Tok)
		case *ast.BranchStmt:
			fmt.Fprintf(&b, "%s(", n.Tok)
		default:
			fmt.Fprintf(&b, "%T(", n)
		}
		return true
	})
	return b.String()
}

// identShape keeps what a rename of a local does not touch.
func identShape(info *types.Info, id *ast.Ident) string {
	if id.Name == "_" {
		return "_"
	}
	var obj types.Object
	if info != nil {
		obj = info.ObjectOf(id)
	}
	if v, ok := obj.(*types.Var); ok && !v.IsField() && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
		return "_" // a local variable or parameter
	}
	if obj == nil && info != nil {
		if _, isDef := info.Defs[id]; isDef {
			return "_" // the symbolic variable of a type switch
		}
	}
	return id.Name
}

// setFingerprints fills Finding.Fingerprint for the program's findings.
func (p *Program) setFingerprints() {
	p.indexFiles()
	files := p.files
	lines := map[string][]string{}
	shape := func(c *dualwrite.Call) string {
		if c == nil {
			return ""
		}
		if fi, ok := files[c.Position.Filename]; ok && c.Pos.IsValid() {
			if s := StmtShape(fi.file, fi.pkg.TypesInfo, c.Pos); s != "" {
				return s
			}
		}
		// no statement there (a directive comment) or the file is not a
		// root's: the line's text, its spaces normalised
		return "line:" + strings.Join(strings.Fields(sourceLine(lines, c.Position.Filename, c.Position.Line)), " ")
	}
	for i := range p.Findings {
		f := &p.Findings[i]
		f.Fingerprint = Fingerprint(*f, p.Rel(f.Publish.Position.Filename), shape(&f.Publish), shape(f.Write))
	}
}

type fileInfo struct {
	file *ast.File
	pkg  *packages.Package
}

func sourceLine(cache map[string][]string, filename string, n int) string {
	ls, ok := cache[filename]
	if !ok {
		if data, err := os.ReadFile(filename); err == nil {
			ls = strings.Split(string(data), "\n")
		}
		cache[filename] = ls
	}
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}
