package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/outboxify/outboxify/report"
)

// TestReportExample runs the scripts in testdata/report_example against a
// copy of the shipped example module ($WORK/example): report before fix;
// then fix (which generates) + report, with what fix left for a person
// still listed; then that person's edits (edit/cp in the script), go build,
// scan and a complete report. Generated code needs its requirements (uuid,
// prometheus) added with `go get`; they come from the local module cache
// served as a file:// proxy, so the test stays offline.
func TestReportExample(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module several times")
	}
	example, err := filepath.Abs(filepath.Join("..", "..", "testdata", "example"))
	if err != nil {
		t.Fatal(err)
	}
	goEnv := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT", "GOPROXY"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", k, err)
		}
		goEnv[k] = strings.TrimSpace(string(out))
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "report_example"),
		Setup: func(env *testscript.Env) error {
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			env.Setenv("GOPROXY", cacheProxy(goEnv["GOMODCACHE"], goEnv["GOPROXY"]))
			env.Setenv("GOSUMDB", "off")
			env.Setenv("GOFLAGS", "-mod=mod")
			env.Setenv("GOTOOLCHAIN", "local")
			return copyTree(example, filepath.Join(env.WorkDir, "example"))
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"json": jsonCmd,
			// code N cmd args...: run cmd, require exit status N.
			"code": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: code N command [args...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("code: %v", err)
				}
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("code: %v", err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
				}
			},
			// fixes-match: the last command's stdout (report JSON) lists
			// exactly what .outboxify/fixes.json says fix replaced.
			"fixes-match": func(ts *testscript.TestScript, neg bool, args []string) {
				type loc struct {
					File string
					Line int
				}
				type replaced struct {
					Rule          string
					Before, After loc
				}
				var fixes struct{ Replaced []replaced }
				var rep struct {
					DualWrites struct{ Replaced []replaced } `json:"dual_writes"`
				}
				if err := json.Unmarshal([]byte(ts.ReadFile(".outboxify/fixes.json")), &fixes); err != nil {
					ts.Fatalf("fixes.json: %v", err)
				}
				if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &rep); err != nil {
					ts.Fatalf("stdout: %v", err)
				}
				if len(fixes.Replaced) == 0 {
					ts.Fatalf("fixes.json replaced nothing: nothing to compare")
				}
				if !reflect.DeepEqual(fixes.Replaced, rep.DualWrites.Replaced) {
					ts.Fatalf("report lists %+v\nfixes.json has %+v", rep.DualWrites.Replaced, fixes.Replaced)
				}
			},
			// manual-match: the last command's stdout (report JSON) lists
			// as remaining exactly the dual writes .outboxify/fixes.json
			// says fix left for a person (consumer rules, OBX1xx, are not
			// dual writes).
			"manual-match": func(ts *testscript.TestScript, neg bool, args []string) {
				type finding struct {
					Rule string
					File string
					Line int
				}
				var fixes struct{ Manual []finding }
				var rep struct {
					DualWrites struct{ Remaining []finding } `json:"dual_writes"`
				}
				if err := json.Unmarshal([]byte(ts.ReadFile(".outboxify/fixes.json")), &fixes); err != nil {
					ts.Fatalf("fixes.json: %v", err)
				}
				if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &rep); err != nil {
					ts.Fatalf("stdout: %v", err)
				}
				var left []finding
				for _, m := range fixes.Manual {
					if !strings.HasPrefix(m.Rule, "OBX1") {
						left = append(left, m)
					}
				}
				if len(left) == 0 {
					ts.Fatalf("fixes.json left no dual write: nothing to compare")
				}
				if !reflect.DeepEqual(left, rep.DualWrites.Remaining) {
					ts.Fatalf("report lists as remaining %+v\nfixes.json left %+v", rep.DualWrites.Remaining, left)
				}
			},
			// schema [field]: the last command's stdout, or its top-level
			// field (fix --format json carries the report in "report"), is
			// a report that matches report/schema.json.
			"schema": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) > 1 {
					ts.Fatalf("usage: schema [field]")
				}
				doc := []byte(ts.ReadFile("stdout"))
				if len(args) == 1 {
					var fields map[string]json.RawMessage
					if err := json.Unmarshal(doc, &fields); err != nil {
						ts.Fatalf("stdout: %v", err)
					}
					var ok bool
					if doc, ok = fields[args[0]]; !ok {
						ts.Fatalf("stdout has no field %q", args[0])
					}
				}
				err := report.Validate(doc)
				if (err == nil) == neg {
					ts.Fatalf("schema: %v (negated: %v)", err, neg)
				}
			},
			// edit file edits: apply a person's edits to file. edits holds
			// blocks of "<<<<<<<", the old text, "=======", the new text,
			// ">>>>>>>"; each old text must occur in file exactly once, so
			// an edit that no longer fits the example fails loudly.
			"edit": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: edit file edits")
				}
				text := ts.ReadFile(args[0])
				blocks := strings.Split(ts.ReadFile(args[1]), "<<<<<<<\n")
				if strings.TrimSpace(blocks[0]) != "" || len(blocks) < 2 {
					ts.Fatalf("%s: want blocks starting with <<<<<<<", args[1])
				}
				for i, b := range blocks[1:] {
					old, rest, ok1 := strings.Cut(b, "=======\n")
					repl, tail, ok2 := strings.Cut(rest, ">>>>>>>\n")
					if !ok1 || !ok2 || strings.TrimSpace(tail) != "" {
						ts.Fatalf("%s: block %d is not <<<<<<< old ======= new >>>>>>>", args[1], i+1)
					}
					if n := strings.Count(text, old); n != 1 {
						ts.Fatalf("%s: block %d: old text occurs %d times in %s, want once:\n%s", args[1], i+1, n, args[0], old)
					}
					text = strings.Replace(text, old, repl, 1)
				}
				if err := os.WriteFile(ts.MkAbs(args[0]), []byte(text), 0o644); err != nil {
					ts.Fatalf("edit: %v", err)
				}
			},
		},
	})
}

// copyTree copies the regular files under src to dst.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
