package generate

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// MissingRequirements lists the import paths of the generated Go files that
// no requirement in the module's go.mod provides (nor the standard library
// or the module itself): `go get` them before building. Generation does not
// edit go.mod; the go command resolves versions.
func (cs *Changeset) MissingRequirements() ([]string, error) {
	data, err := os.ReadFile(filepath.Join(cs.Root, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("read go.mod: %w", err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return nil, fmt.Errorf("parse go.mod: %w", err)
	}
	provided := []string{cs.Config.Module}
	for _, r := range mf.Require {
		provided = append(provided, r.Mod.Path)
	}
	missing := map[string]bool{}
	fset := token.NewFileSet()
	for _, ch := range cs.Changes {
		if !strings.HasSuffix(ch.Path, ".go") {
			continue
		}
		f, err := parser.ParseFile(fset, ch.Path, ch.New, parser.ImportsOnly)
		if err != nil {
			return nil, fmt.Errorf("parse generated %s: %w", ch.Path, err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			first, _, _ := strings.Cut(p, "/")
			if !strings.Contains(first, ".") {
				continue // standard library
			}
			covered := false
			for _, m := range provided {
				if p == m || strings.HasPrefix(p, m+"/") {
					covered = true
					break
				}
			}
			if !covered {
				missing[p] = true
			}
		}
	}
	out := make([]string, 0, len(missing))
	for p := range missing {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}
