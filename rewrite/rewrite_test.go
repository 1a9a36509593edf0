package rewrite_test

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"

	"github.com/outboxify/outboxify/rewrite"
	"github.com/outboxify/outboxify/scan"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/*.txtar")

// Case layout (testdata/<name>.txtar): files without a want prefix are the
// input module (module example.com/app; third-party APIs come from
// testdata/stubs at their real import paths); want/<path> is each rewritten
// file; want.diff the unified diff; want.report the text summary.
const modPath = "example.com/app"

const outboxPkg = modPath + "/internal/outbox"

func TestCases(t *testing.T) {
	cases, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(cases) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	stubs := stubModules(t)
	for _, c := range cases {
		name := strings.TrimSuffix(filepath.Base(c), ".txtar")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runCase(t, c, stubs)
		})
	}
}

// stubModules maps each stub module path to its directory.
func stubModules(t *testing.T) map[string]string {
	root, err := filepath.Abs("testdata/stubs")
	if err != nil {
		t.Fatal(err)
	}
	mods := map[string]string{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == "go.mod" {
			dir := filepath.Dir(p)
			rel, _ := filepath.Rel(root, dir)
			mods[filepath.ToSlash(rel)] = dir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return mods
}

func goMod(stubs map[string]string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "module %s\n\ngo 1.22\n\nrequire (\n", modPath)
	var paths []string
	for p := range stubs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fmt.Fprintf(&b, "\t%s %s\n", p, stubVersion(p))
	}
	b.WriteString(")\n\nreplace (\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "\t%s => %s\n", p, stubs[p])
	}
	b.WriteString(")\n")
	return b.Bytes()
}

// stubVersion is a version valid for the module path's major version suffix.
func stubVersion(path string) string {
	if i := strings.LastIndex(path, "/v"); i >= 0 {
		if v := path[i+2:]; v != "" && strings.Trim(v, "0123456789") == "" {
			return "v" + v + ".0.0"
		}
	}
	return "v0.0.0"
}

func loadConfig(dir string) packages.Config {
	return packages.Config{
		Dir: dir,
		Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off"),
	}
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedDeps | packages.NeedTypes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

func load(t *testing.T, dir string) []*packages.Package {
	t.Helper()
	cfg := loadConfig(dir)
	cfg.Mode = loadMode
	pkgs, err := packages.Load(&cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		t.Fatalf("module does not type-check:\n%s", strings.Join(errs, "\n"))
	}
	return pkgs
}

func fix(t *testing.T, dir string) *rewrite.Result {
	t.Helper()
	prog, err := scan.Load(dir, []string{"./..."}, scan.Options{Env: loadConfig(dir).Env})
	if err != nil {
		t.Fatal(err)
	}
	pkgs, findings := prog.Packages, prog.Findings
	res, err := rewrite.Fix(pkgs, findings, rewrite.Options{OutboxPkg: outboxPkg})
	if err != nil {
		t.Fatal(err)
	}
	if err := rewrite.Verify(res, loadConfig(dir), nil); err != nil {
		t.Fatal(err)
	}
	return res
}

func runCase(t *testing.T, file string, stubs map[string]string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), goMod(stubs), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "want") {
			want[f.Name] = f.Data
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	res := fix(t, dir)

	got := map[string][]byte{}
	for _, f := range res.Files {
		got["want/"+rewrite.DisplayPath(dir, f.Path)] = f.After
		// The recorded "after" line is where the outbox insert is (the
		// unit of work: where the function's body enters outbox.Run).
		lines := strings.Split(string(f.After), "\n")
		for _, r := range f.Replaced {
			want := ".Insert" // Insert or a per-driver InsertSqlx, InsertPgx, ...
			if r.Strategy == rewrite.StrategyUnit {
				want = ".Run("
			}
			if r.After.Line < 1 || r.After.Line > len(lines) || !strings.Contains(lines[r.After.Line-1], want) {
				t.Errorf("%s: replacement of line %d recorded at line %d, which holds no outbox insert", f.Path, r.Before.Line, r.After.Line)
			}
		}
	}
	var d, rep bytes.Buffer
	if err := rewrite.Diff(&d, dir, res); err != nil {
		t.Fatal(err)
	}
	got["want.diff"] = d.Bytes()
	rewrite.Text(&rep, dir, res)
	got["want.report"] = rep.Bytes()

	if *update {
		var files []txtar.File
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "want") {
				files = append(files, f)
			}
		}
		var names []string
		for n := range got {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			files = append(files, txtar.File{Name: n, Data: got[n]})
		}
		ar.Files = files
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	} else {
		for n, w := range want {
			if !bytes.Equal(got[n], w) {
				t.Errorf("%s differs:\n--- got ---\n%s\n--- want ---\n%s", n, got[n], w)
			}
		}
		for n := range got {
			if _, ok := want[n]; !ok {
				t.Errorf("unexpected output %s:\n%s", n, got[n])
			}
		}
	}

	// The result is gofmt'd, type-checks, and a second run changes nothing.
	if errs := rewrite.WriteFiles(res); len(errs) > 0 {
		t.Fatal(errs)
	}
	again := fix(t, dir) // load fails the test if the output does not type-check
	if len(again.Files) > 0 {
		var b bytes.Buffer
		rewrite.Diff(&b, dir, again)
		t.Errorf("second run changed files:\n%s", b.String())
	}
	if len(again.Manual) != len(res.Manual) {
		var b bytes.Buffer
		rewrite.Text(&b, dir, again)
		t.Errorf("second run left %d findings, first run %d:\n%s", len(again.Manual), len(res.Manual), b.String())
	}
}
