package consumer

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
)

// funcFact summarizes what a function does when a handler calls it: it
// carries the consumer rule across packages (a handler calling
// repo.SetStatus in another package) and, inside a package, beyond the one
// level the handler walk follows.
type funcFact struct {
	Write    string   // catalog name of a DB write it reaches without the inbox
	Via      []string // functions between it and the write, outermost first
	Inbox    bool     // it goes through the inbox (or an inbox package)
	External string   // external API it reaches (payment, email), full name
}

func (*funcFact) AFact() {}

func (f *funcFact) String() string {
	var parts []string
	if f.Write != "" {
		parts = append(parts, "writes "+f.Write)
	}
	if f.Inbox {
		parts = append(parts, "inbox")
	}
	if f.External != "" {
		parts = append(parts, "external "+f.External)
	}
	return "consumer(" + strings.Join(parts, ", ") + ")"
}

func (f *funcFact) empty() bool { return f.Write == "" && !f.Inbox && f.External == "" }

// summarize computes a funcFact for every function of the package (a fixed
// point over calls inside the package, facts for imported callees) and
// exports the non-empty ones. The standard library writes no database rows
// of its own, so it is skipped.
func (c *checker) summarize() {
	c.summaries = map[*types.Func]*funcFact{}
	if c.inGOROOT() || !c.mayMatter() {
		return
	}
	fns := make([]*types.Func, 0, len(c.decls))
	for fn := range c.decls {
		fns = append(fns, fn)
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].Pos() < fns[j].Pos() })
	for round := 0; round < 8; round++ {
		changed := false
		for _, fn := range fns {
			d := c.decls[fn]
			w := &walker{checker: c, derived: map[types.Object]bool{}, visited: map[*ast.FuncDecl]bool{}, summaries: c.summaries, summarizing: true}
			w.walk(root{node: d.Body}, 1, nil)
			sum := &funcFact{Inbox: w.inbox}
			if !w.inbox {
				for _, wr := range w.writes {
					if !wr.idempotent {
						sum.Write, sum.Via = wr.call.Name, wr.call.Via
						break
					}
				}
			}
			if len(w.externals) > 0 {
				sum.External = w.externals[0].call.Name
			}
			if old := c.summaries[fn]; sum.empty() && old == nil || old != nil && fmt.Sprint(old) == fmt.Sprint(sum) {
				continue
			}
			if sum.empty() {
				delete(c.summaries, fn)
			} else {
				c.summaries[fn] = sum
			}
			changed = true
		}
		if !changed {
			break
		}
	}
	// Only exported functions and methods can be called from importers.
	for fn, sum := range c.summaries {
		if fn.Exported() {
			c.pass.ExportObjectFact(fn, sum)
		}
	}
}

// mayMatter reports whether the package can reach a DB write, the inbox or
// an external API: it imports a catalogued client, database/sql, net/http,
// net/smtp, an inbox or SDK package, or some dependency has facts. Facts
// are sparse, so the last check is cheap; packages below the data layer
// are skipped.
func (c *checker) mayMatter() bool {
	for _, imp := range c.pass.Pkg.Imports() {
		p := imp.Path()
		if p == "database/sql" || p == "net/http" || p == "net/smtp" || c.catalog.IsClient(p) || c.catalog.HasPackage(p) || isInboxPkg(imp) {
			return true
		}
		for _, sdk := range externalSDKs {
			if p == sdk || strings.HasPrefix(p, sdk+"/") {
				return true
			}
		}
	}
	return len(c.pass.AllObjectFacts()) > 0
}

// inGOROOT reports whether the package is part of the Go distribution.
func (c *checker) inGOROOT() bool {
	if len(c.pass.Files) == 0 {
		return true
	}
	name := c.pass.Fset.File(c.pass.Files[0].Pos()).Name()
	return strings.HasPrefix(name, filepath.Join(build.Default.GOROOT, "src")+string(filepath.Separator))
}

// apply records what a called function does, from its summary or fact.
func (w *walker) apply(call *ast.CallExpr, fn *types.Func, sum *funcFact, depth int, site *ast.CallExpr) {
	if sum.Inbox {
		w.inbox = true
	}
	if sum.Write != "" {
		wc := w.call(call, sum.Write)
		wc.Via = append([]string{fn.FullName()}, sum.Via...)
		w.writes = append(w.writes, write{call: wc, idempotent: generatedUpsert(fn)})
	}
	if sum.External != "" {
		at, name := call, fn.FullName()
		if depth > 0 && site != nil && !w.summarizing {
			at = site
		}
		w.addExternal(at, name, call, depth)
	}
}

// generatedUpsert: a sqlboiler model's Upsert, which builds INSERT ... ON
// CONFLICT (DO NOTHING, or DO UPDATE keyed by the conflict columns) at run
// time: repeating it for a redelivered message stores the row once.
func generatedUpsert(fn *types.Func) bool {
	if fn.Name() != "Upsert" || fn.Pkg() == nil {
		return false
	}
	for _, imp := range fn.Pkg().Imports() {
		if imp.Path() == "github.com/volatiletech/sqlboiler/v4/queries" || imp.Path() == "github.com/aarondl/sqlboiler/v4/queries" {
			return true
		}
	}
	return false
}
