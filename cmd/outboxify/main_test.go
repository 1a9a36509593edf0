package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"outboxify": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts in testdata/script. Fixture modules stub
// third-party clients at their real import paths with replace directives,
// so they load with the module proxy off.
func TestScripts(t *testing.T) {
	goEnv := map[string]string{}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", k, err)
		}
		goEnv[k] = strings.TrimSpace(string(out))
	}
	out, _ := exec.Command("go", "env", "GOPROXY").Output()
	machineProxy := strings.TrimSpace(string(out))
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			for k, v := range goEnv {
				env.Setenv(k, v)
			}
			env.Setenv("GOPROXY", "off")
			// CACHEPROXY: the module cache as a proxy, then the machine's
			// own proxy setting, for scripts that need real modules.
			env.Setenv("CACHEPROXY", cacheProxy(goEnv["GOMODCACHE"], machineProxy))
			env.Setenv("GOFLAGS", "-mod=mod")
			env.Setenv("GOTOOLCHAIN", "local")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"json":      jsonCmd,
			"jsonmatch": jsonMatchCmd,
			// exit N cmd args...: run cmd, require exit status N; its
			// stdout and stderr are kept for the next commands.
			"exit": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exit N command [args...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("exit: %v", err)
				}
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("exit: %v", err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", strings.Join(args[1:], " "), got, want)
				}
			},
		},
	})
}

// jsonCmd: json PATH WANT parses the last command's stdout as JSON and
// compares the value at PATH (dot-separated keys and list indexes; a final
// "len" is the length of a list) with WANT, formatted as %v.
func jsonCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: json PATH WANT")
	}
	got := jsonAt(ts, args[0])
	if (got == args[1]) == neg {
		ts.Fatalf("%s = %s, want %s%s", args[0], got, map[bool]string{true: "not "}[neg], args[1])
	}
}

// jsonMatchCmd: jsonmatch PATH REGEXP is json for a value matched by a
// regular expression (a diff held in a string field).
func jsonMatchCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsonmatch PATH REGEXP")
	}
	re, err := regexp.Compile(args[1])
	if err != nil {
		ts.Fatalf("jsonmatch: %v", err)
	}
	got := jsonAt(ts, args[0])
	if re.MatchString(got) == neg {
		ts.Fatalf("%s = %q, want %smatching %s", args[0], got, map[bool]string{true: "not "}[neg], args[1])
	}
}

// jsonAt is the value at path in the last stdout, formatted as %v.
func jsonAt(ts *testscript.TestScript, path string) string {
	args := []string{path}
	var v any
	if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &v); err != nil {
		ts.Fatalf("stdout is not JSON: %v", err)
	}
	for _, key := range strings.Split(args[0], ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[key]; !ok {
				ts.Fatalf("%s: no key %q", args[0], key)
			}
		case []any:
			if key == "len" {
				v = len(x)
				break
			}
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				ts.Fatalf("%s: index %q out of a list of %d", args[0], key, len(x))
			}
			v = x[i]
		default:
			ts.Fatalf("%s: %q into a %T", args[0], key, v)
		}
	}
	return fmt.Sprint(v)
}
