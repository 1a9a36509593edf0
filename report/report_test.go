package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// goOffline makes the go command load fixture modules with stub
// dependencies (replace directives) and no network.
func goOffline(t *testing.T) {
	t.Setenv("GOPROXY", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOTOOLCHAIN", "local")
}

// extract writes the archive's files (all but want.md) into a temp dir.
func extract(t *testing.T, name string) (dir string, want string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "want.md" {
			want = string(f.Data)
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
	return dir, want
}

// reports caches one Build per fixture: loading packages is the slow part.
var reports = map[string]*Report{}

func build(t *testing.T, name string) (*Report, string) {
	t.Helper()
	goOffline(t)
	dir, want := extract(t, name)
	if r, ok := reports[name]; ok {
		return r, want
	}
	r, err := Build(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	reports[name] = r
	return r, want
}

// TestGolden builds the report of each fixture module and compares the
// contract lines its want.md lists (a fixture leaves out the dual-write
// line when it is not what it tests).
func TestGolden(t *testing.T) {
	for _, name := range []string{"polling.txtar", "debezium.txtar", "bare.txtar", "broken.txtar", "managed.txtar"} {
		t.Run(strings.TrimSuffix(name, ".txtar"), func(t *testing.T) {
			r, want := build(t, name)
			got := map[string]string{}
			for _, line := range strings.Split(strings.TrimSpace(r.Markdown()), "\n") {
				label, _, _ := strings.Cut(line, ":**")
				got[label] = line
			}
			if n := len(got); n != 6 {
				t.Errorf("%d contract lines, want 6:\n%s", n, r.Markdown())
			}
			for _, w := range strings.Split(strings.TrimSpace(want), "\n") {
				label, _, _ := strings.Cut(w, ":**")
				if got[label] != w {
					t.Errorf("line %s\n got %s\nwant %s", label, got[label], w)
				}
			}
		})
	}
}

// TestPollingComplete: after fix + generate every field is found and no
// dual write remains; the JSON carries the figures behind the lines.
func TestPollingComplete(t *testing.T) {
	r, _ := build(t, "polling.txtar")
	if !r.Complete || r.DualWritesRemaining {
		t.Errorf("complete=%v remaining=%v, want true/false:\n%s", r.Complete, r.DualWritesRemaining, r.Markdown())
	}
	for i, f := range r.fields() {
		if !f.Found {
			t.Errorf("%s not found: %s", labels[i], f.Text)
		}
	}
	if r.Outbox.Transactions != 2 || len(r.Outbox.Sites) != 3 {
		t.Errorf("outbox: %d transactions over %d sites, want 2 over 3: %+v", r.Outbox.Transactions, len(r.Outbox.Sites), r.Outbox.Sites)
	}
	if r.Relay.Mode != RelayShards || r.Relay.Shards != 4 {
		t.Errorf("relay %s/%d, want %s/4", r.Relay.Mode, r.Relay.Shards, RelayShards)
	}
	b, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil || back.Outbox.Migration != r.Outbox.Migration {
		t.Errorf("JSON does not round-trip (%v): %s", err, b)
	}
}

// TestJSONSchema: every fixture's JSON matches schema.json, and the schema
// rejects a report with a field missing or of the wrong type.
func TestJSONSchema(t *testing.T) {
	for _, name := range []string{"polling.txtar", "debezium.txtar", "bare.txtar", "broken.txtar", "managed.txtar"} {
		r, _ := build(t, name)
		b, err := r.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(b); err != nil {
			t.Errorf("%s: %v\n%s", name, err, b)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		delete(doc["relay"].(map[string]any), "mode")
		broken, _ := json.Marshal(doc)
		if Validate(broken) == nil {
			t.Errorf("%s: schema accepted a relay without mode", name)
		}
		doc["outbox"].(map[string]any)["transactions"] = "two"
		broken, _ = json.Marshal(doc)
		if Validate(broken) == nil {
			t.Errorf("%s: schema accepted transactions as a string", name)
		}
	}
}
