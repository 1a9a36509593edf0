package rewrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// keepImportGroups puts the imports of after (the file as dst printed it,
// its groups merged) back into the groups before had: each import that was
// there goes back to its group, a new one joins a group of the same kind
// (standard library, this module, third-party), else a module's own import
// joins the third-party group as plain goimports puts it, else it starts a
// group after the others. A merged group is review noise in a change
// that only adds an import. Files with other than one parenthesised import
// declaration are left as they are.
func keepImportGroups(before, after []byte, module string) ([]byte, error) {
	fb, err := parser.ParseFile(token.NewFileSet(), "", before, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return after, nil // fixFile read it; unparsable here means nothing to keep
	}
	fsetA := token.NewFileSet()
	fa, err := parser.ParseFile(fsetA, "", after, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("parse the rewritten imports: %w", err)
	}
	db, da := importDecl(fb), importDecl(fa)
	if db == nil || da == nil {
		return after, nil
	}
	kind := func(path string) int {
		switch {
		case module != "" && (path == module || strings.HasPrefix(path, module+"/")):
			return 2
		case !strings.Contains(strings.SplitN(path, "/", 2)[0], "."):
			return 0
		}
		return 1
	}
	// the groups of before: a blank line (or a comment line) between specs
	// starts a new one
	fsetB := token.NewFileSet()
	fb, _ = parser.ParseFile(fsetB, "", before, parser.ImportsOnly|parser.ParseComments)
	db = importDecl(fb)
	groupOf := map[string]int{}
	var groupKinds [][]int
	prevEnd := -1
	for _, s := range db.Specs {
		is := s.(*ast.ImportSpec)
		start := fsetB.Position(specStart(is)).Line
		if prevEnd < 0 || start > prevEnd+1 {
			groupKinds = append(groupKinds, nil)
		}
		g := len(groupKinds) - 1
		path, _ := strconv.Unquote(is.Path.Value)
		groupOf[path] = g
		groupKinds[g] = append(groupKinds[g], kind(path))
		prevEnd = fsetB.Position(is.End()).Line
	}
	sameKind := func(g, k int) bool {
		for _, x := range groupKinds[g] {
			if x != k {
				return false
			}
		}
		return true
	}
	type spec struct{ path, text string }
	groups := make([][]spec, len(groupKinds)+3) // then one new group per kind
	for _, s := range da.Specs {
		is := s.(*ast.ImportSpec)
		end := is.End()
		if is.Comment != nil {
			end = is.Comment.End()
		}
		text := string(after[fsetA.Position(specStart(is)).Offset:fsetA.Position(end).Offset])
		path, _ := strconv.Unquote(is.Path.Value)
		g, ok := groupOf[path]
		if !ok {
			g = pickGroup(len(groupKinds), kind(path), sameKind, func(i int) bool {
				// a group without standard library imports: where plain
				// goimports puts a module's own import too
				return kind(path) != 0 && !sameKind(i, 0) && !hasKind(groupKinds[i], 0)
			})
		}
		groups[g] = append(groups[g], spec{path, text})
	}
	var b bytes.Buffer
	b.WriteString("import (")
	first := true
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		sort.SliceStable(g, func(i, j int) bool { return g[i].path < g[j].path })
		for _, s := range g {
			b.WriteString("\n\t" + s.text)
		}
	}
	b.WriteString("\n)")
	out := append([]byte(nil), after[:fsetA.Position(da.Pos()).Offset]...)
	out = append(out, b.Bytes()...)
	out = append(out, after[fsetA.Position(da.End()).Offset:]...)
	src, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("regroup imports: %w", err)
	}
	return src, nil
}

// importDecl is the file's one parenthesised import declaration, or nil.
func importDecl(f *ast.File) *ast.GenDecl {
	var found *ast.GenDecl
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if found != nil || !gd.Lparen.IsValid() {
			return nil
		}
		found = gd
	}
	return found
}

func specStart(is *ast.ImportSpec) token.Pos {
	if is.Doc != nil {
		return is.Doc.Pos()
	}
	if is.Name != nil {
		return is.Name.Pos()
	}
	return is.Path.Pos()
}

// pickGroup is the group for a new import of kind k among n: the last
// group of that kind only, else the last that fits, else a new group of
// its own after the others (n+k).
func pickGroup(n, k int, same func(int, int) bool, fits func(int) bool) int {
	for i := n - 1; i >= 0; i-- {
		if same(i, k) {
			return i
		}
	}
	for i := n - 1; i >= 0; i-- {
		if fits(i) {
			return i
		}
	}
	return n + k
}

func hasKind(kinds []int, k int) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}
