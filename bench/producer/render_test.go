package producerbench

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/outboxify/outboxify/bench/producer/internal/writers"
)

// TestRenderedWritersUpToDate fails when pgoutbox/ or myoutbox/ differ from
// what the templates render now; fix with `go generate` in bench/producer.
func TestRenderedWritersUpToDate(t *testing.T) {
	files, err := writers.Render()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.FromSlash(f.Path))
		if err != nil || !bytes.Equal(got, f.Content) {
			t.Errorf("%s is stale (%v); run go generate in bench/producer", f.Path, err)
		}
	}
}
