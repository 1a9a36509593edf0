package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// hook is the part of a .pre-commit-hooks.yaml entry that decides what runs.
type hook struct {
	ID            string   `yaml:"id"`
	Entry         string   `yaml:"entry"`
	Args          []string `yaml:"args"`
	Language      string   `yaml:"language"`
	PassFilenames *bool    `yaml:"pass_filenames"`
	Types         []string `yaml:"types"`
}

// TestPreCommitHooks reads the repository's .pre-commit-hooks.yaml and runs
// each hook's command line as pre-commit would (entry, then args, from the
// repository root, no file names) on a module with one dual write: exit 1
// naming it; and the baseline hook, once the baseline is recorded, exit 0.
func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []hook
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	byID := map[string]hook{}
	for _, h := range hooks {
		// language golang: pre-commit go-installs this repository, whose
		// command is outboxify; the scan needs packages, not file names
		if h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames || len(h.Types) != 1 || h.Types[0] != "go" {
			t.Errorf("hook %s: language %q, pass_filenames %v, types %v: want golang, false, [go]", h.ID, h.Language, h.PassFilenames, h.Types)
		}
		if !strings.HasPrefix(h.Entry, "outboxify scan") {
			t.Errorf("hook %s: entry %q does not run outboxify scan", h.ID, h.Entry)
		}
		byID[h.ID] = h
	}
	if _, ok := byID["outboxify"]; !ok {
		t.Fatalf("no outboxify hook in %v", hooks)
	}
	if _, ok := byID["outboxify-baseline"]; !ok {
		t.Fatalf("no outboxify-baseline hook in %v", hooks)
	}

	dir := dualWriteModule(t)
	t.Chdir(dir) // pre-commit runs a hook from the repository root
	runHook := func(h hook) (int, string) {
		argv := append(strings.Fields(h.Entry)[1:], h.Args...)
		var out, errb bytes.Buffer
		code := run(argv, &out, &errb)
		return code, out.String() + errb.String()
	}
	code, out := runHook(byID["outboxify"])
	if code != exitFindings || !strings.Contains(out, "svc/svc.go:") || !strings.Contains(out, "OBX001") {
		t.Errorf("outboxify hook: exit %d, want 1 with the finding:\n%s", code, out)
	}
	if code := run([]string{"scan", "--baseline-write", ".outboxify/baseline.json"}, &bytes.Buffer{}, &bytes.Buffer{}); code != exitOK {
		t.Fatalf("--baseline-write: exit %d", code)
	}
	code, out = runHook(byID["outboxify-baseline"])
	if code != exitOK {
		t.Errorf("outboxify-baseline hook with the finding recorded: exit %d, want 0:\n%s", code, out)
	}
}

// dualWriteModule writes a module with one dual write; the broker client is
// a stub at its real import path.
func dualWriteModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":            "module example.com/shop\n\ngo 1.26\n\nrequire github.com/nats-io/nats.go v1.0.0\n\nreplace github.com/nats-io/nats.go => ./stub/nats\n",
		"stub/nats/go.mod":  "module github.com/nats-io/nats.go\n\ngo 1.26\n",
		"stub/nats/nats.go": "package nats\n\ntype Conn struct{}\n\nfunc (*Conn) Publish(subj string, data []byte) error { return nil }\n",
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
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
