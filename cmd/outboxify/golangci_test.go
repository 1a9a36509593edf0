package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// golangciVersion is the golangci-lint the custom build was proven with
// (README, docs/ci.md); OUTBOXIFY_GOLANGCI_VERSION tries another.
const golangciVersion = "v2.15.0"

// TestGolangciCustomBuild builds a custom golangci-lint the way
// `golangci-lint custom` does, but from the module proxy instead of a git
// clone: golangci-lint's module source, cmd/golangci-lint/plugins.go
// with the blank import of this module's plugin package, a replace of this
// module to the working tree, go mod tidy, go build. The binary then runs
// on the example module and must report what `go vet -vettool` reports
// (one package at a time, like golangci-lint); a //nolint:outboxify on a
// finding's line hides that finding from golangci-lint.
//
// Opt-in (downloads and builds golangci-lint, minutes):
//
//	OUTBOXIFY_GOLANGCI=1 go test ./cmd/outboxify -run TestGolangciCustomBuild -v -timeout 60m
func TestGolangciCustomBuild(t *testing.T) {
	if os.Getenv("OUTBOXIFY_GOLANGCI") == "" {
		t.Skip("set OUTBOXIFY_GOLANGCI=1 to build a custom golangci-lint with the plugin (minutes)")
	}
	version := golangciVersion
	if v := os.Getenv("OUTBOXIFY_GOLANGCI_VERSION"); v != "" {
		version = v
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	gocmd := func(dir string, args ...string) []byte {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}

	// 1. golangci-lint's source at the version: the module the proxy
	// serves is the repository's tree at that tag (what custom clones).
	out := gocmd(work, "mod", "download", "-json", "github.com/golangci/golangci-lint/v2@"+version)
	var dl struct{ Dir string }
	if err := json.Unmarshal(out, &dl); err != nil || dl.Dir == "" {
		t.Fatalf("go mod download: %v\n%s", err, out)
	}
	src := filepath.Join(work, "golangci-lint")
	if out, err := exec.Command("cp", "-r", dl.Dir, src).CombinedOutput(); err != nil {
		t.Fatalf("copy: %v\n%s", err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", src).CombinedOutput(); err != nil {
		t.Fatalf("chmod: %v\n%s", err, out)
	}

	// 2. the plugin: plugins.go imports it, go.mod requires and replaces it
	plugins := "package main\n\n// This file is used to declare module plugins.\n\nimport _ \"github.com/outboxify/outboxify/analyzer/golangci\"\n"
	if err := os.WriteFile(filepath.Join(src, "cmd", "golangci-lint", "plugins.go"), []byte(plugins), 0o644); err != nil {
		t.Fatal(err)
	}
	gocmd(src, "mod", "edit", "-require=github.com/outboxify/outboxify@v0.0.0", "-replace=github.com/outboxify/outboxify="+repo)
	gocmd(src, "mod", "tidy")

	// 3. build, the version stamped as custom does
	bin := filepath.Join(work, "golangci-lint-outboxify")
	ldflags := "-X main.version=" + strings.TrimPrefix(version, "v") + "-custom-gcl -X main.date=" + time.Now().UTC().Format(time.RFC3339)
	gocmd(src, "build", "-trimpath", "-ldflags", ldflags, "-o", bin, "./cmd/golangci-lint")
	ver, _ := exec.Command(bin, "version").CombinedOutput()
	t.Logf("built %s", strings.TrimSpace(string(ver)))

	// 4. the example module, copied so a config and a //nolint can be added
	example := filepath.Join(work, "example")
	if out, err := exec.Command("cp", "-r", filepath.Join(repo, "testdata", "example"), example).CombinedOutput(); err != nil {
		t.Fatalf("copy example: %v\n%s", err, out)
	}
	cfg := `version: "2"
linters:
  default: none
  enable:
    - outboxify
  settings:
    custom:
      outboxify:
        type: module
        description: dual writes (DB write + broker publish without one transaction)
        settings: {}
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
`
	if err := os.WriteFile(filepath.Join(example, ".golangci.yml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	got := golangciFindings(t, bin, example)

	vettool := filepath.Join(work, "outboxify-vet")
	gocmd(repo, "build", "-o", vettool, "./cmd/outboxify-vet")
	vet := exec.Command("go", "vet", "-vettool="+vettool, "-json", "./...")
	vet.Dir = example
	vetOut, _ := vet.CombinedOutput()
	want, err := vetFindings(vetOut, example)
	if err != nil {
		t.Fatalf("%v\n%s", err, vetOut)
	}
	slices.Sort(want)
	if len(want) == 0 {
		t.Fatalf("go vet found nothing on the example: the comparison could not fail\n%s", vetOut)
	}
	if !slices.Equal(got, want) {
		t.Errorf("golangci-lint findings != go vet findings\ngolangci-lint: %q\n      go vet: %q", got, want)
	}
	t.Logf("golangci-lint %s with the plugin: %d findings, the same as go vet -vettool: %q", version, len(got), got)

	// 5. //nolint:outboxify on a dual-write finding's line hides it
	var first string
	for _, k := range want {
		if strings.HasSuffix(k, " OBX001") {
			first = k
			break
		}
	}
	file, line := first[:strings.Index(first, ":")], first[strings.Index(first, ":")+1:]
	line = line[:strings.Index(line, ":")]
	path := filepath.Join(example, filepath.FromSlash(file))
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	n := atoi(t, line)
	// a directive must start its comment: before the line's own comment
	if i := strings.Index(lines[n-1], "//"); i >= 0 {
		lines[n-1] = lines[n-1][:i] + "//nolint:outboxify " + lines[n-1][i:]
	} else {
		lines[n-1] += " //nolint:outboxify"
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	// and //outboxify:ignore on the line above the OBX002 finding (in
	// another file) hides that one
	var ignored string
	for _, k := range want {
		if strings.HasSuffix(k, " OBX002") {
			ignored = k
		}
	}
	ifile := filepath.Join(example, filepath.FromSlash(ignored[:strings.Index(ignored, ":")]))
	idata, err := os.ReadFile(ifile)
	if err != nil {
		t.Fatal(err)
	}
	ilines := strings.Split(string(idata), "\n")
	rest := ignored[strings.Index(ignored, ":")+1:]
	in := atoi(t, rest[:strings.Index(rest, ":")])
	ilines = slices.Insert(ilines, in-1, "\t//outboxify:ignore OBX002 proven in TestGolangciCustomBuild")
	if err := os.WriteFile(ifile, []byte(strings.Join(ilines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	after := golangciFindings(t, bin, example)
	if slices.Contains(after, first) || len(after) != len(want)-2 {
		t.Errorf("with //nolint:outboxify on %s and //outboxify:ignore above %s: %q, want all but those two", first, ignored, after)
	}
	for _, k := range after {
		if strings.HasSuffix(k, " OBX002") {
			t.Errorf("//outboxify:ignore OBX002 not honoured: %q", after)
		}
	}
}

// golangciFindings runs the custom binary with JSON output and returns the
// findings as vetFindings' keys (file:line:col RULE).
func golangciFindings(t *testing.T, bin, dir string) []string {
	t.Helper()
	cmd := exec.Command(bin, "run", "--output.json.path=stdout", "--show-stats=false", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 { // 1: issues found
			t.Fatalf("golangci-lint run: %v\n%s\n%s", err, stdout.String(), stderr.String())
		}
	}
	var rep struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename     string
				Line, Column int
			}
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("golangci-lint json: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	var keys []string
	for _, is := range rep.Issues {
		if strings.HasPrefix(is.Text, "outboxify(related information)") {
			continue // golangci-lint shows the paired DB write as an issue of its own
		}
		// the plugin's second analyzer is named in front of its messages
		text := strings.TrimPrefix(is.Text, "outboxconsumer: ")
		rule, _, _ := strings.Cut(text, " ") // the message starts with the rule
		keys = append(keys, key(filepath.ToSlash(is.Pos.Filename), is.Pos.Line, is.Pos.Column, rule))
	}
	slices.Sort(keys)
	return keys
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a line number: %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}
