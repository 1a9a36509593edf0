package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadFindsFileAtModuleRoot(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "module example.com/app\n")
	write(t, filepath.Join(root, FileName), `
publishers:
  - "(*example.com/app/bus.Bus).Emit"
  - name: "example.com/app/events.Send"
    broker: kafka
writers:
  - name: "(github.com/redis/go-redis/v9.cmdable).Set"
    store: redis
exclude: ["internal/legacy/...", "**/mock_*.go"]
`)
	sub := filepath.Join(root, "internal", "orders")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := Load(sub)
	if err != nil {
		t.Fatal(err)
	}
	if c.Root != root || len(c.Publishers) != 2 || c.Publishers[1].Broker != "kafka" || c.Writers[0].Store != "redis" {
		t.Fatalf("unexpected config %+v", c)
	}
	rows := c.Rows()
	if len(rows) != 3 || rows[0].Broker != "custom" {
		t.Fatalf("rows %+v", rows)
	}
	for file, want := range map[string]bool{
		filepath.Join(root, "internal/legacy/x.go"):    true,
		filepath.Join(root, "internal/legacy/a/b.go"):  true,
		filepath.Join(root, "internal/orders/x.go"):    false,
		filepath.Join(root, "pkg/mock_bus.go"):         true,
		filepath.Join(root, "internal/legacyfoo/x.go"): false,
	} {
		if got := c.Excluded(file); got != want {
			t.Errorf("Excluded(%s) = %v, want %v", file, got, want)
		}
	}
}

func TestOutboxAndExternalKeys(t *testing.T) {
	c, err := Parse([]byte(`
outbox:
  - "(*example.com/app/events.Store).Append"
  - name: "example.com/app/events.Record"
    handle: 1
external:
  - "(*example.com/pay.Client).Charge"
`))
	if err != nil {
		t.Fatal(err)
	}
	rows := c.Rows()
	if len(rows) != 2 {
		t.Fatalf("rows %+v", rows)
	}
	for i, want := range []int{-1, 1} {
		if rows[i].Kind.String() != "outbox" || rows[i].Handle != want {
			t.Errorf("row %d = %+v, want an outbox row with handle %d", i, rows[i], want)
		}
	}
	if got := c.ExternalNames(); len(got) != 1 || got[0] != "(*example.com/pay.Client).Charge" {
		t.Errorf("ExternalNames = %v", got)
	}
	if _, err := Parse([]byte("outbox: [notafullname]\n")); err == nil || !strings.Contains(err.Error(), "outbox[0]") {
		t.Errorf("bad outbox entry: %v", err)
	}
}

func TestLoadWithoutFile(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "go.mod"), "module example.com/app\n")
	c, err := Load(root)
	if err != nil || c.File != "" || len(c.Publishers) != 0 {
		t.Fatalf("Load = %+v, %v", c, err)
	}
}

func TestBadConfigErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"publisher: [x]\n", "field publisher not found"},
		{"publishers: [\n", "parsing configuration"},
		{"writers: [notafullname]\n", "not a full name"},
		{"exclude: ['[']\n", "bad pattern"},
	} {
		_, err := Parse([]byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want error containing %q", tc.yaml, err, tc.want)
		}
	}
	if _, err := Load("/"); err == nil || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("Load(/) = %v, want no go.mod error", err)
	}
}

func write(t *testing.T, name, s string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}
