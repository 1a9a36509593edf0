package scan

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// LineRange is lines From..To (inclusive) of File (absolute).
type LineRange struct {
	File     string
	From, To int
}

// Chain returns the source lines a finding rests on: the statements
// holding the publish and the write, and the bodies of the functions on
// their call chains (Via) that the loaded packages declare. A change on any
// of them makes the finding "new code" for --new-from-rev.
func (p *Program) Chain(f dualwrite.Finding) []LineRange {
	p.indexDecls()
	var out []LineRange
	for _, c := range []*dualwrite.Call{&f.Publish, f.Write} {
		if c == nil {
			continue
		}
		out = append(out, p.stmtRange(c))
		for _, fn := range c.Via {
			if r, ok := p.decls[fn]; ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// stmtRange is the lines of the innermost statement holding the call, or
// its line alone.
func (p *Program) stmtRange(c *dualwrite.Call) LineRange {
	r := LineRange{File: c.Position.Filename, From: c.Position.Line, To: c.Position.Line}
	fi, ok := p.files[c.Position.Filename]
	if !ok || !c.Pos.IsValid() {
		return r
	}
	path, _ := astutil.PathEnclosingInterval(fi.file, c.Pos, c.Pos)
	var call ast.Node = path[0]
	for _, n := range path {
		if ce, ok := n.(*ast.CallExpr); ok {
			call = ce
			break
		}
	}
	for _, n := range path {
		switch s := n.(type) {
		case *ast.BlockStmt:
			return p.nodeRange(r, call)
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.LabeledStmt, *ast.CaseClause, *ast.CommClause:
			// the call is in the header of a statement holding a whole
			// body: its own lines are what count
			return p.nodeRange(r, call)
		case ast.Stmt:
			return p.nodeRange(r, s)
		}
	}
	return r
}

func (p *Program) nodeRange(r LineRange, n ast.Node) LineRange {
	from, to := p.Fset.Position(n.Pos()), p.Fset.Position(n.End())
	if from.Filename == r.File && to.Filename == r.File {
		r.From, r.To = min(r.From, from.Line), max(r.To, to.Line)
	}
	return r
}

// indexDecls maps the full names of the functions the root packages
// declare to their lines (once).
func (p *Program) indexDecls() {
	if p.decls != nil {
		return
	}
	p.decls = map[string]LineRange{}
	p.indexFiles()
	for _, pkg := range p.Packages {
		for _, file := range pkg.Syntax {
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || pkg.TypesInfo == nil {
					continue
				}
				fn, ok := pkg.TypesInfo.Defs[fd.Name].(*types.Func)
				if !ok {
					continue
				}
				from, to := p.Fset.Position(fd.Pos()), p.Fset.Position(fd.End())
				p.decls[fn.FullName()] = LineRange{File: from.Filename, From: from.Line, To: to.Line}
			}
		}
	}
}

// indexFiles maps file names to their syntax and package (once).
func (p *Program) indexFiles() {
	if p.files != nil {
		return
	}
	p.files = map[string]fileInfo{}
	for _, pkg := range p.Packages {
		for _, f := range pkg.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			if _, ok := p.files[name]; !ok {
				p.files[name] = fileInfo{file: f, pkg: pkg}
			}
		}
	}
}
