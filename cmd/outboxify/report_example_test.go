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
// copy of the shipped example module ($WORK/example): report before fix,
// then fix + generate + report. Generated code needs its requirements
// (uuid, prometheus) added with `go get`; they come from the local module
// cache served as a file:// proxy, so the test stays offline.
func TestReportExample(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the example module several times")
	}
	example, err := filepath.Abs(filepath.Join("..", "..", "testdata", "example"))
	if err != nil {
		t.Fatal(err)
	}
	goEnv := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
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
			env.Setenv("GOPROXY", "file://"+filepath.ToSlash(filepath.Join(goEnv["GOMODCACHE"], "cache", "download")))
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
			// schema: the last command's stdout is a report that matches
			// report/schema.json.
			"schema": func(ts *testscript.TestScript, neg bool, args []string) {
				err := report.Validate([]byte(ts.ReadFile("stdout")))
				if (err == nil) == neg {
					ts.Fatalf("schema: %v (negated: %v)", err, neg)
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
