package scan_test

import (
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/scan"
)

// bodies counts the function declarations with and without a body in p,
// leaving out those that take a func-typed parameter written out (kept so
// the analyzer can read how they run the closures they are given).
func bodies(p *packages.Package) (with, without int) {
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && !scan.TakesFuncLit(fd) {
				if fd.Body != nil && len(fd.Body.List) > 0 {
					with++
				} else {
					without++
				}
			}
		}
	}
	return with, without
}

// funcBodies counts the bodies kept of functions that take a func-typed
// parameter written out.
func funcBodies(p *packages.Package) (kept int) {
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && scan.TakesFuncLit(fd) && fd.Body != nil && len(fd.Body.List) > 0 {
				kept++
			}
		}
	}
	return kept
}

func TestLoadDropsIrrelevantBodies(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"store/store.go": store,
		"svc/svc.go":     svc,
		"repo/repo.go":   "package repo\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\t\"strings\"\n)\n\nfunc Save(ctx context.Context, db *sql.DB, s string) error {\n\t_, err := db.ExecContext(ctx, strings.ToUpper(s))\n\treturn err\n}\n",
	})
	for _, all := range []bool{false, true} {
		prog, err := scan.Load(dir, []string{"./repo", "./svc"}, scan.Options{Analyzer: toyAnalyzer, AllBodies: all})
		if err != nil {
			t.Fatal(err)
		}
		byPath := map[string]*packages.Package{}
		packages.Visit(prog.Packages, nil, func(p *packages.Package) { byPath[p.PkgPath] = p })
		if w, _ := bodies(byPath["example.com/toy/repo"]); w == 0 {
			t.Errorf("AllBodies=%v: root package lost its bodies", all)
		}
		if w, _ := bodies(byPath["example.com/toy/store"]); w != 0 {
			// store's bodies are empty in the fixture: nothing to check there.
			t.Fatalf("fixture changed: store has %d non-empty bodies", w)
		}
		// strings reaches no DB or broker client: its bodies go unless AllBodies.
		w, wo := bodies(byPath["strings"])
		if all && w == 0 || !all && w != 0 || wo == 0 && !all {
			t.Errorf("AllBodies=%v: strings has %d bodies, %d without", all, w, wo)
		}
		// strings.Map(mapping func(rune) rune, ...) keeps its body either way.
		if k := funcBodies(byPath["strings"]); k == 0 {
			t.Errorf("AllBodies=%v: strings lost the bodies of functions taking a func", all)
		}
		// Findings do not depend on it.
		if len(prog.Findings) != 1 || prog.Findings[0].Func != "Place" {
			t.Errorf("AllBodies=%v: findings %+v", all, prog.Findings)
		}
	}
}

// TestExampleSameWithAllBodies: dropping bodies of irrelevant dependencies
// changes no finding of the real analyzer on the example module.
func TestExampleSameWithAllBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example twice")
	}
	keys := func(all bool) []string {
		prog, err := scan.Load(exampleDir, nil, scan.Options{AllBodies: all})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range prog.Findings {
			out = append(out, f.Publish.Position.String()+" "+f.Rule+" "+f.Message)
		}
		return out
	}
	pruned, full := keys(false), keys(true)
	if len(full) == 0 || !slices.Equal(pruned, full) {
		t.Errorf("findings differ:\npruned %q\nfull   %q", pruned, full)
	}
}

// TestStrippedRetryLibrary: a retry helper of the module hands its closure
// to a library whose body the loader drops (its parameter is a named func
// type, so the body is not kept): the closure still runs during the call,
// and the publish in it pairs with the write before it, with or without
// the library's bodies.
func TestStrippedRetryLibrary(t *testing.T) {
	files := map[string]string{
		"go.mod": "module example.com/toy\n\ngo 1.26\n\nrequire (\n\texample.com/backoff v0.0.0\n\tgithub.com/nats-io/nats.go v0.0.0\n)\n\n" +
			"replace example.com/backoff => ./third_party/backoff\n\nreplace github.com/nats-io/nats.go => ./third_party/nats\n",
		"third_party/backoff/go.mod": "module example.com/backoff\n\ngo 1.26\n",
		"third_party/backoff/backoff.go": `package backoff

// Operation is retried until it succeeds.
type Operation func() error

func Retry(op Operation, tries int) error {
	var err error
	for i := 0; i < tries; i++ {
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}
`,
		"third_party/nats/go.mod":  "module github.com/nats-io/nats.go\n\ngo 1.26\n",
		"third_party/nats/nats.go": "package nats\n\ntype Conn struct{}\n\nfunc (c *Conn) Publish(subj string, data []byte) error { return nil }\n",
		"retry/retry.go": `package retry

import (
	"context"

	"example.com/backoff"
)

func Three(ctx context.Context, fn func() error) error { return backoff.Retry(fn, 3) }
`,
		"svc/svc.go": `package svc

import (
	"context"
	"database/sql"

	"example.com/toy/retry"
	"github.com/nats-io/nats.go"
)

type Svc struct {
	db *sql.DB
	nc *nats.Conn
}

func (s *Svc) Place(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id); err != nil {
		return err
	}
	return retry.Three(ctx, func() error { return s.nc.Publish("orders.placed", []byte(id)) })
}
`,
	}
	dir := writeTree(t, files)
	for _, all := range []bool{false, true} {
		prog, err := scan.Load(dir, []string{"./..."}, scan.Options{AllBodies: all, Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range prog.Findings {
			got = append(got, fmt.Sprintf("%s:%d %s", filepath.Base(f.Publish.Position.Filename), f.Publish.Position.Line, f.Func))
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], "svc.go:20 ") {
			t.Errorf("AllBodies=%v: findings %q, want the publish at svc.go:20 in Place", all, got)
		}
	}
}

// A go.work member that needs a module the proxy cannot serve breaks every
// package of the workspace (go list cannot build its module graph). The
// scanned module loads on its own, so Load falls back to GOWORK=off, finds
// its dual write and says why.
func TestWorkspaceMemberUnavailable(t *testing.T) {
	files := map[string]string{
		"go.work":        "go 1.26\n\nuse (\n\t./svc\n\t./tools\n)\n",
		"tools/go.mod":   "module example.com/tools\n\ngo 1.26\n\nrequire example.invalid/gone v1.0.0\n",
		"tools/tools.go": "package tools\n\nimport _ \"example.invalid/gone\"\n",
		"svc/go.mod":     "module example.com/svc\n\ngo 1.26\n\nrequire github.com/nats-io/nats.go v0.0.0\n\nreplace github.com/nats-io/nats.go => ../nats\n",
		"nats/go.mod":    "module github.com/nats-io/nats.go\n\ngo 1.26\n",
		"nats/nats.go":   "package nats\n\ntype Conn struct{}\n\nfunc (c *Conn) Publish(subj string, data []byte) error { return nil }\n",
		"svc/svc.go": `package svc

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

func Place(ctx context.Context, db *sql.DB, nc *nats.Conn, id string) error {
	if _, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id); err != nil {
		return err
	}
	return nc.Publish("orders.placed", []byte(id))
}
`,
	}
	dir := writeTree(t, files)
	// -mod=mod, which workspace mode refuses outright, and the default
	for _, flags := range []string{"GOFLAGS=-mod=mod", "GOFLAGS="} {
		env := append(os.Environ(), flags, "GOPROXY=off", "GOWORK=")
		prog, err := scan.Load(filepath.Join(dir, "svc"), []string{"./..."}, scan.Options{Partial: true, WholeModule: true, Env: env})
		if err != nil {
			t.Fatalf("%s: %v", flags, err)
		}
		checkWorkspaceOff(t, flags, prog)
	}
}

func checkWorkspaceOff(t *testing.T, flags string, prog *scan.Program) {
	t.Helper()
	if len(prog.Findings) != 1 || prog.Findings[0].Publish.Position.Line != 14 {
		t.Errorf("%s: findings %v, want the publish at svc.go:14", flags, prog.Findings)
	}
	if !strings.Contains(prog.WorkspaceOff, "go.work") || !strings.Contains(prog.WorkspaceOff, "GOWORK=off") {
		t.Errorf("%s: WorkspaceOff = %q, want it to name the workspace and GOWORK=off", flags, prog.WorkspaceOff)
	}
	if len(prog.Skipped) != 0 {
		t.Errorf("%s: skipped %v, want none without the workspace", flags, prog.Skipped)
	}
}
