package relaybench

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/templates"
)

// TestRenderedRelayUpToDate fails when outboxrelay/ (the relay the
// benchmarks run) differs from what the templates render now; fix with
// `go generate` in bench/relay.
func TestRenderedRelayUpToDate(t *testing.T) {
	files, err := templates.Render(templates.Config{
		Module: "github.com/outboxify/outboxify/bench/relay", DB: "postgres", Broker: "jetstream", RelayDir: "outboxrelay",
	}, "relay")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasPrefix(f.Path, "outboxrelay/") {
			continue
		}
		got, err := os.ReadFile(filepath.FromSlash(f.Path))
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("%s is stale (%v); run go generate in bench/relay", f.Path, err)
		}
	}
}
