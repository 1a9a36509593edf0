// Package testmod builds throwaway Go modules for tests: generated code and
// rewritten examples are written into a temp module whose requirements are
// this repository's own (go.mod and go.sum copied), so they compile offline
// from the module cache that building outboxify already filled.
package testmod

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/outboxify/outboxify/templates"
)

// Root returns the outboxify repository root (the directory holding go.mod).
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// New writes files (slash paths relative to the module root) into a fresh temp
// directory that is a module named modPath, requiring everything outboxify's
// go.mod requires, and returns the directory.
func New(t testing.TB, modPath string, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	if err := Write(dir, modPath, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Write is New for callers without a testing.TB (benchmarks, tools).
func Write(dir, modPath string, files map[string][]byte) error {
	root := Root()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return fmt.Errorf("read outboxify go.mod: %w", err)
	}
	src, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return fmt.Errorf("parse outboxify go.mod: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo %s\n\nrequire (\n", modPath, src.Go.Version)
	for _, r := range src.Require {
		fmt.Fprintf(&b, "\t%s %s\n", r.Mod.Path, r.Mod.Version)
	}
	b.WriteString(")\n")
	if _, ok := files["go.mod"]; !ok {
		if err := writeFile(filepath.Join(dir, "go.mod"), []byte(b.String())); err != nil {
			return err
		}
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return fmt.Errorf("read outboxify go.sum: %w", err)
	}
	if err := writeFile(filepath.Join(dir, "go.sum"), sum); err != nil {
		return err
	}
	for name, content := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), content); err != nil {
			return err
		}
	}
	return nil
}

// WriteRendered writes rendered template files (slash paths relative to
// dir) into dir, as generate would, without a go.mod of its own.
func WriteRendered(t testing.TB, dir string, files []templates.File) {
	t.Helper()
	for _, f := range files {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(f.Path)), f.Content); err != nil {
			t.Fatal(err)
		}
	}
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// Go runs the go command with args in dir and returns its combined output.
// -mod=mod lets the go command add missing go.sum lines from the module
// cache without touching the network when the cache already has them.
func Go(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := GoErr(dir, args...)
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return out
}

// GoErr is Go without a testing.TB; it returns the error instead of failing.
func GoErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}
