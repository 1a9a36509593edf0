// Command render writes the generated relay (PostgreSQL, JetStream) that the
// benchmarks run into ../../outboxrelay; `go generate` in bench/relay runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/outboxify/outboxify/templates"
)

func main() {
	files, err := templates.Render(templates.Config{
		Module: "github.com/outboxify/outboxify/bench/relay", DB: "postgres", Broker: "jetstream", RelayDir: "outboxrelay",
	}, "relay")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, f := range files {
		if !strings.HasPrefix(f.Path, "outboxrelay/") {
			continue
		}
		if err := os.WriteFile(filepath.FromSlash(f.Path), f.Content, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
