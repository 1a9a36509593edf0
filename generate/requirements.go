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
		if !strings.HasSuffix(ch.Path, ".go") || cs.InRelayModule(ch.Path) || ch.Component == "retired" {
			continue // the relay's own module carries its own requirements
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

// InRelayModule reports whether a generated file (slash path relative to the
// module root) belongs to the relay's own nested module.
func (cs *Changeset) InRelayModule(p string) bool {
	d := cs.Config.RelayModuleDir
	return d != "" && d != "." && strings.HasPrefix(p, d+"/")
}

// floors are the oldest versions of the modules service-side generated code
// calls that have every API it uses (the outbox writers: gorm's
// WithContext came in v1.20; sqlx's Tx.ExecContext in v1.2).
var floors = map[string]string{
	"gorm.io/gorm":            "v1.20.0",
	"github.com/jmoiron/sqlx": "v1.2.0",
	"github.com/jackc/pgx/v4": "v4.0.0",
	"github.com/jackc/pgx/v5": "v5.0.0",
}

// Floor returns the oldest version of module path that generated
// service-side code builds against, or "" when any version does.
func Floor(path string) string { return floors[path] }
