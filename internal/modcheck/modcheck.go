// Package modcheck builds a module as it would be after a change, before the
// change is written: the changed files are given to the go command as an
// overlay (go build -overlay), so nothing on disk moves until the build
// says the change is safe. It also tells the errors a change adds from the
// ones the module had before, so a module that was already broken can
// still be fixed where the fix adds no error.
package modcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Changes maps an absolute file path to its new content; nil content means
// the file is removed.
type Changes map[string][]byte

// Result is one build of a module.
type Result struct {
	OK     bool
	Output string
	// Errors are the build's errors keyed so that the same error before
	// and after a change compares equal: "# pkg" for a package that did
	// not compile, the message without line and column for the rest.
	Errors map[string]bool
}

// Build runs `go build ./...` in root as if changes were written (extra
// flags such as -mod=mod come first; env is added to the process's).
func Build(root string, changes Changes, flags []string, env []string) (res *Result, err error) {
	args := append([]string{"build"}, flags...)
	if len(changes) > 0 {
		dir, err := os.MkdirTemp("", "outboxify-overlay-")
		if err != nil {
			return nil, fmt.Errorf("overlay: %w", err)
		}
		defer os.RemoveAll(dir)
		ov, paths, err := writeOverlay(dir, changes)
		if err != nil {
			return nil, err
		}
		args = append(args, "-overlay="+ov)
		defer func() {
			if res != nil {
				res.Output = realPaths(res.Output, root, paths)
			}
		}()
	}
	args = append(args, "./...")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	res = &Result{OK: err == nil, Output: string(out), Errors: errorKeys(string(out))}
	if err != nil {
		if _, exit := err.(*exec.ExitError); !exit {
			return nil, fmt.Errorf("go build: %w", err)
		}
	}
	return res, nil
}

// writeOverlay writes each changed file's content under dir and the
// overlay JSON naming them, returning the JSON's path.
func writeOverlay(dir string, changes Changes) (string, []string, error) {
	replace := map[string]string{}
	paths := make([]string, 0, len(changes))
	for p := range changes {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			return "", nil, fmt.Errorf("overlay: %s is not an absolute path", p)
		}
		b := changes[p]
		if b == nil {
			replace[p] = "" // removed
			continue
		}
		backing := filepath.Join(dir, fmt.Sprintf("%d_%s", i, filepath.Base(p)))
		if err := os.WriteFile(backing, b, 0o644); err != nil {
			return "", nil, fmt.Errorf("overlay: %w", err)
		}
		replace[p] = backing
	}
	data, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err != nil {
		return "", nil, fmt.Errorf("overlay: %w", err)
	}
	ov := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ov, data, 0o644); err != nil {
		return "", nil, fmt.Errorf("overlay: %w", err)
	}
	return ov, paths, nil
}

var backingFile = regexp.MustCompile(`[^\s:]*outboxify-overlay-[0-9]+/([0-9]+)_[^\s:]+`)

// realPaths names, in build output, the files the change would write
// instead of the overlay's backing copies.
func realPaths(out, root string, paths []string) string {
	return backingFile.ReplaceAllStringFunc(out, func(m string) string {
		sub := backingFile.FindStringSubmatch(m)
		var i int
		if _, err := fmt.Sscan(sub[1], &i); err != nil || i >= len(paths) {
			return m
		}
		if rel, err := filepath.Rel(root, paths[i]); err == nil {
			return "./" + filepath.ToSlash(rel)
		}
		return paths[i]
	})
}

var position = regexp.MustCompile(`:\d+(:\d+)?:`)

// errorKeys reduces build output to comparable keys: a package's errors
// count once under its "# pkg" header (compile errors move when a file is
// rewritten; a failed link prints the linker's command line and temporary
// paths, new on every build); loose lines (setup errors such as a missing
// requirement, before any header or from the go command) count by their
// text without positions.
func errorKeys(out string) map[string]bool {
	keys := map[string]bool{}
	inPkg := false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "# "):
			keys[line] = true
			inPkg = true
		case line == "":
		case strings.HasPrefix(line, "\t") || strings.HasPrefix(line, " "):
			// continuation of the error above
		case inPkg && !strings.HasPrefix(line, "go: "):
			// an error of the package under the header
		default:
			inPkg = false
			keys[position.ReplaceAllString(line, ":")] = true
		}
	}
	return keys
}

// New returns the errors after that were not there before, sorted; before
// nil means the module had none.
func New(before, after *Result) []string {
	var out []string
	for k := range after.Errors {
		if before == nil || !before.Errors[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// Excerpt is the build output cut to a readable length for an error.
func (r *Result) Excerpt() string {
	const max = 2000
	if len(r.Output) > max {
		return r.Output[:max] + "..."
	}
	return r.Output
}

// BuildTree writes a self-contained module (files keyed by slash path
// relative to its root, go.mod and go.sum among them) to a temporary
// directory and builds it there as its README says it is built: outside any
// workspace, with go.mod and go.sum as written. Unreachable modules are
// reported apart (Fetch), since that says nothing about the code.
func BuildTree(files map[string][]byte) (res *Result, fetch bool, err error) {
	dir, err := os.MkdirTemp("", "outboxify-module-")
	if err != nil {
		return nil, false, fmt.Errorf("build module: %w", err)
	}
	defer os.RemoveAll(dir)
	for rel, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, false, fmt.Errorf("build module: %w", err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, false, fmt.Errorf("build module: %w", err)
		}
	}
	res, err = Build(dir, nil, nil, []string{"GOWORK=off", "GOFLAGS=-mod=readonly"})
	if err != nil {
		return nil, false, err
	}
	return res, !res.OK && fetchFailure(res.Output), nil
}

// fetchFailure reports whether a build failed only because modules could
// not be downloaded (no network, GOPROXY=off, a proxy refusing).
func fetchFailure(out string) bool {
	for _, s := range []string{"GOPROXY=off", "module lookup disabled", "dial tcp", "no such host", "connection refused", "403 Forbidden", "404 Not Found", "i/o timeout"} {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}
