package rewrite_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/analyzer/golangci"
	"github.com/outboxify/outboxify/scan"
)

// TestUnitMutations takes what fix wrote for the unit-of-work cases (their
// want/ files, which TestCases checks fix still writes), and removes one
// piece of the rewrite at a time: one outbox.SQL/Pgx/Gorm wrap of a write,
// or one outbox.Enqueue guard. The dual write must come back at a function
// that runs in outbox.Run: in the CLI (scan, whose resolver follows
// interfaces to their implementations) always, and in the per-package
// analyzer wherever it reported that function before the rewrite. The
// per-package analyzer is dualwrite.Analyzer, which go vet -vettool runs
// (cmd/outboxify-vet), and the golangci-lint plugin's analyzer is built
// from the same code with the plugin's default settings: both are run.
// Before any mutation the rewritten program is clean at every function in
// outbox.Run, for all three.
func TestUnitMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("loads each mutated module three times")
	}
	stubs := stubModules(t)
	for _, name := range []string{
		"unit_wrapper",              // database/sql + kafka-go, behind interfaces
		"unit_pgx_gorm",             // pgxpool + amqp091, gorm + amqp091
		"unit_gorm_jetstream",       // gorm + JetStream, a dropped ack
		"unit_sqlc_field",           // sqlc Queries in a field + kafka-go
		"unit_interfaces_two_impls", // two implementations each
		"unit_publish_first",        // publish before write, pgxpool + amqp091
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mutationCase(t, filepath.Join("testdata", name+".txtar"), stubs)
		})
	}
}

// analyzers are the three ways a user runs the dual-write analysis.
type analyzers struct {
	plugin *analysis.Analyzer
}

// findingFuncs maps each analysis (cli, vet, plugin) to the functions it
// reports a dual write in.
func (a analyzers) findingFuncs(t *testing.T, dir string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{"cli": {}, "vet": {}, "plugin": {}}
	prog, err := scan.Load(dir, []string{"./..."}, scan.Options{Env: loadConfig(dir).Env})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range prog.Findings {
		if strings.HasPrefix(f.Rule, "OBX00") {
			out["cli"][f.Func] = true
		}
	}
	cfg := loadConfig(dir)
	cfg.Mode = packages.LoadAllSyntax
	pkgs, err := packages.Load(&cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the module does not load")
	}
	for name, an := range map[string]*analysis.Analyzer{"vet": dualwrite.Analyzer, "plugin": a.plugin} {
		g, err := checker.Analyze([]*analysis.Analyzer{an}, pkgs, nil)
		if err != nil {
			t.Fatal(err)
		}
		for act := range g.All() {
			if act.Analyzer != an || !act.IsRoot {
				continue
			}
			if act.Err != nil {
				t.Fatalf("%s: %v", act, act.Err)
			}
			for _, f := range act.Result.(*dualwrite.Result).Findings {
				out[name][f.Func] = true
			}
		}
	}
	return out
}

// mutation is one piece of a rewrite taken out: the file's text with the
// bytes [start, end) replaced by repl.
type mutation struct {
	file       string // module-relative
	what       string
	start, end int
	repl       string
}

func mutationCase(t *testing.T, file string, stubs map[string]string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := golangci.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	as, err := p.BuildAnalyzers()
	if err != nil {
		t.Fatal(err)
	}
	an := analyzers{plugin: as[0]}

	input := map[string][]byte{}
	rewritten := map[string][]byte{}
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "want/"):
			rewritten[strings.TrimPrefix(f.Name, "want/")] = f.Data
		case !strings.HasPrefix(f.Name, "want"):
			input[f.Name] = f.Data
		}
	}
	if len(rewritten) == 0 {
		t.Fatal("the case rewrites nothing")
	}
	dir := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", goMod(stubs))
	for name, data := range input {
		write(name, data)
	}

	// before the rewrite: what each analysis reports
	before := an.findingFuncs(t, dir)
	for name, data := range rewritten {
		write(name, data)
	}

	// the functions fix put in outbox.Run, and the mutations
	runFuncs := map[string]bool{}
	var muts []mutation
	var names []string
	for name := range rewritten {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fs, ms := mutationsOf(t, name, rewritten[name])
		for _, f := range fs {
			runFuncs[f] = true
		}
		muts = append(muts, ms...)
	}
	if len(runFuncs) == 0 || len(muts) == 0 {
		t.Fatalf("no function in outbox.Run (%d) or no mutation (%d)", len(runFuncs), len(muts))
	}

	// the rewrite is clean at every function in outbox.Run
	after := an.findingFuncs(t, dir)
	for kind, funcs := range after {
		for fn := range funcs {
			if runFuncs[fn] {
				t.Errorf("%s reports %s after the rewrite", kind, fn)
			}
		}
	}

	vetChecked := 0
	for _, m := range muts {
		src := rewritten[m.file]
		mutated := append(append(append([]byte(nil), src[:m.start]...), m.repl...), src[m.end:]...)
		write(m.file, mutated)
		got := an.findingFuncs(t, dir)
		write(m.file, src)

		var back []string // functions in outbox.Run the CLI reports again
		for fn := range got["cli"] {
			if runFuncs[fn] {
				back = append(back, fn)
			}
		}
		sort.Strings(back)
		if len(back) == 0 {
			t.Errorf("%s: %s: the CLI reports no function in outbox.Run", m.file, m.what)
			continue
		}
		for _, kind := range []string{"vet", "plugin"} {
			for _, fn := range back {
				if before[kind][fn] {
					vetChecked++
					if !got[kind][fn] {
						t.Errorf("%s: %s: %s reported %s before the rewrite, and not with the mutation (the CLI does)", m.file, m.what, kind, fn)
					}
				}
			}
		}
		t.Logf("%s: %s: reported again at %s", m.file, m.what, strings.Join(back, ", "))
	}
	t.Logf("%d mutations; %d per-package checks", len(muts), vetChecked)
}

// accessorNames are the unit's handle accessors; writeMethods the methods
// (at the end of the accessor's call chain) that write.
var accessorNames = map[string]bool{"SQL": true, "Pgx": true, "PgxV4": true, "Gorm": true, "Sqlx": true}

func isWriteMethod(name string) bool {
	switch name {
	case "Exec", "ExecContext", "MustExecContext", "NamedExecContext", "Create", "Save", "Update", "Updates", "Delete", "CreateInBatches":
		return true
	}
	// sqlc's generated queries named for what they do
	for _, p := range []string{"Create", "Insert", "Update", "Delete"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// mutationsOf lists the functions of a rewritten file whose body runs in
// outbox.Run (full names as the analyzer writes them), and the file's
// mutations: each accessor wrap of a write taken out (outbox.SQL(ctx, h)
// becomes h), each Enqueue guard taken out (the direct callback's publish
// in its place).
func mutationsOf(t *testing.T, name string, src []byte) ([]string, []mutation) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(n ast.Node) string { return string(src[off(n.Pos()):off(n.End())]) }
	pkgPath := modPath + "/" + filepath.ToSlash(filepath.Dir(name))
	isOutbox := func(e ast.Expr, fn string) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && id.Name == "outbox" && (fn == "" || sel.Sel.Name == fn)
	}
	var funcs []string
	var muts []mutation
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		full := pkgPath + "." + fd.Name.Name
		if fd.Recv != nil {
			rt := fd.Recv.List[0].Type
			ptr := ""
			if st, ok := rt.(*ast.StarExpr); ok {
				rt, ptr = st.X, "*"
			}
			full = fmt.Sprintf("(%s%s.%s).%s", ptr, pkgPath, rt.(*ast.Ident).Name, fd.Name.Name)
		}
		// parents: each node's parent, to find an accessor's call chain end
		parents := map[ast.Node]ast.Node{}
		var stack []ast.Node
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return false
			}
			if len(stack) > 0 {
				parents[n] = stack[len(stack)-1]
			}
			stack = append(stack, n)
			return true
		})
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, _ := c.Fun.(*ast.SelectorExpr)
			switch {
			case isOutbox(c.Fun, "Run"):
				funcs = append(funcs, full)
			case sel != nil && isOutbox(c.Fun, "") && accessorNames[sel.Sel.Name] && len(c.Args) == 2:
				// the end of the chain the accessor starts: outbox.Gorm(ctx,
				// db).WithContext(ctx).Model(x).Update(...), or sqlc's
				// New(outbox.SQL(ctx, db)).CreateOrder(...)
				var end ast.Node = c
				method := ""
				for {
					p := parents[end]
					if ps, ok := p.(*ast.SelectorExpr); ok && ps.X == end {
						if pc, ok := parents[ps].(*ast.CallExpr); ok && pc.Fun == ps {
							method, end = ps.Sel.Name, pc
							continue
						}
					}
					if pc, ok := p.(*ast.CallExpr); ok && end == c && len(pc.Args) == 1 && pc.Args[0] == c {
						end = pc // New(outbox.SQL(ctx, db))
						continue
					}
					break
				}
				if isWriteMethod(method) {
					muts = append(muts, mutation{file: name, what: fmt.Sprintf("%s's %s wrap of %s removed (line %d)", full, text(c.Fun), method, fset.Position(c.Pos()).Line),
						start: off(c.Pos()), end: off(c.End()), repl: text(c.Args[1])})
				}
			case isOutbox(c.Fun, "Enqueue") && len(c.Args) == 3:
				lit, ok := c.Args[2].(*ast.FuncLit)
				if !ok {
					t.Fatalf("%s: Enqueue's callback is not a function literal", fset.Position(c.Pos()))
				}
				what := fmt.Sprintf("%s's Enqueue guard removed (line %d)", full, fset.Position(c.Pos()).Line)
				body := lit.Body.List
				switch {
				case len(body) == 1:
					r := body[0].(*ast.ReturnStmt)
					muts = append(muts, mutation{file: name, what: what, start: off(c.Pos()), end: off(c.End()), repl: text(r.Results[0])})
				case len(body) == 2:
					// err := outbox.Enqueue(..., func(ctx) error { _, err := call; return err })
					as, ok := parents[c].(*ast.AssignStmt)
					if !ok {
						t.Fatalf("%s: a two-statement guard outside an assignment", fset.Position(c.Pos()))
					}
					muts = append(muts, mutation{file: name, what: what, start: off(as.Pos()), end: off(as.End()), repl: text(body[0])})
				default:
					t.Fatalf("%s: a guard of %d statements", fset.Position(c.Pos()), len(body))
				}
			}
			return true
		})
	}
	if bytes.Contains(src, []byte("outbox.")) && len(muts) == 0 && len(funcs) == 0 {
		t.Logf("%s: uses outbox but offers no mutation", name)
	}
	return funcs, muts
}
