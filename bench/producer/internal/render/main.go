// Command render writes the generated outbox writers the benchmarks run:
// PostgreSQL (database/sql, pgx, gorm) into ../../pgoutbox and MySQL
// (database/sql, gorm) into ../../myoutbox; `go generate` in bench/producer
// runs it.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/outboxify/outboxify/bench/producer/internal/writers"
)

func main() {
	files, err := writers.Render()
	if err == nil {
		for _, f := range files {
			if err = os.MkdirAll(filepath.Dir(filepath.FromSlash(f.Path)), 0o755); err != nil {
				break
			}
			if err = os.WriteFile(filepath.FromSlash(f.Path), f.Content, 0o644); err != nil {
				break
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
