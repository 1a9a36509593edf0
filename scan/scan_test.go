package scan_test

import (
	"errors"
	"go/ast"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan"
)

// toyAnalyzer reports every call to a function named Publish that follows
// a call to a function named Save in the same function body: just enough
// to test the loader without the real analyzer's catalog.
var toyAnalyzer = &analysis.Analyzer{
	Name:       "toy",
	Doc:        "test analyzer: Save then Publish",
	ResultType: reflect.TypeFor[*dualwrite.Result](),
	Run: func(pass *analysis.Pass) (any, error) {
		res := &dualwrite.Result{}
		for _, file := range pass.Files {
			for _, decl := range file.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				var save *dualwrite.Call
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					fn := typeutil.StaticCallee(pass.TypesInfo, call)
					if fn == nil {
						return true
					}
					c := dualwrite.Call{Pos: call.Pos(), Position: pass.Fset.Position(call.Pos()), Name: fn.FullName()}
					switch fn.Name() {
					case "Save":
						save = &c
					case "Publish":
						if save != nil {
							res.Findings = append(res.Findings, dualwrite.Finding{
								Rule: dualwrite.RuleAfterWrite, Message: "publish after save",
								Func: fd.Name.Name, Publish: c, Write: save,
							})
						}
					}
					return true
				})
			}
		}
		return res, nil
	},
}

func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	files["go.mod"] = "module example.com/toy\n\ngo 1.26\n"
	return writeTree(t, files)
}

// writeTree writes files (paths relative to a new temporary directory).
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const store = `package store

func Save() {}
func Publish() {}
`

const svc = `package svc

import "example.com/toy/store"

func Place() {
	store.Save()
	store.Publish()
}

func Clean() { store.Publish() }
`

const svcTest = `package svc

import (
	"testing"

	"example.com/toy/store"
)

func TestPlace(t *testing.T) {
	store.Save()
	store.Publish()
}
`

func TestLoadFindings(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"store/store.go": store, "svc/svc.go": svc, "svc/svc_test.go": svcTest,
		"b/b.go": "package b\n\nimport \"example.com/toy/store\"\n\nfunc B() { store.Save(); store.Publish() }\n",
	})
	prog, err := scan.Load(dir, nil, scan.Options{Analyzer: toyAnalyzer})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range prog.Findings {
		got = append(got, prog.Rel(f.Publish.Position.Filename)+":"+itoa(f.Publish.Position.Line)+" "+f.Func+" write "+prog.Rel(f.Write.Position.Filename)+":"+itoa(f.Write.Position.Line))
	}
	want := []string{"b/b.go:5 B write b/b.go:5", "svc/svc.go:7 Place write svc/svc.go:6"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n got %q\nwant %q", got, want)
	}
	if len(prog.Packages) != 3 {
		t.Errorf("root packages = %d, want 3", len(prog.Packages))
	}
	for _, p := range prog.Packages {
		if len(p.Syntax) == 0 || p.TypesInfo == nil {
			t.Errorf("package %s loaded without syntax or types", p.PkgPath)
		}
	}
	if prog.Findings[0].Write.Name != "example.com/toy/store.Save" {
		t.Errorf("write name = %q", prog.Findings[0].Write.Name)
	}
}

func TestLoadTestsOption(t *testing.T) {
	dir := writeModule(t, map[string]string{"store/store.go": store, "svc/svc.go": svc, "svc/svc_test.go": svcTest})
	prog, err := scan.Load(dir, []string{"./svc"}, scan.Options{Analyzer: toyAnalyzer, Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	// svc.go is in both svc and "svc [svc.test]": reported once.
	var got []string
	for _, f := range prog.Findings {
		got = append(got, prog.Rel(f.Publish.Position.Filename)+" "+f.Func)
	}
	want := []string{"svc/svc.go Place", "svc/svc_test.go TestPlace"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with tests: got %q, want %q", got, want)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"store/store.go": store,
		"bad/bad.go":     "package bad\n\nfunc F() int { return \"not an int\" }\n",
	})
	_, err := scan.Load(dir, []string{"./..."}, scan.Options{Analyzer: toyAnalyzer})
	var le *scan.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v, want *scan.LoadError", err)
	}
	if !strings.Contains(err.Error(), "bad.go:3") || !strings.Contains(err.Error(), "not an int") {
		t.Errorf("error does not name the type error: %v", err)
	}

	if _, err := scan.Load(dir, []string{"./nothing/..."}, scan.Options{Analyzer: toyAnalyzer}); err == nil {
		t.Error("pattern matching no packages: no error")
	}
	if _, err := scan.Load(filepath.Join(dir, "missing"), nil, scan.Options{Analyzer: toyAnalyzer}); err == nil {
		t.Error("missing directory: no error")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
