// Package writers renders the outbox writers and migrations the producer
// benchmarks use.
package writers

import (
	"strings"

	"github.com/outboxify/outboxify/templates"
)

// Module is the benchmark module's path.
const Module = "github.com/outboxify/outboxify/bench/producer"

// Configs are the rendered writers: PostgreSQL (database/sql, pgx, gorm)
// and MySQL (database/sql, gorm).
var Configs = map[string]templates.Config{
	"postgres": {Module: Module, DB: "postgres", Driver: "database/sql", Drivers: []string{"pgx", "gorm"}, OutboxDir: "pgoutbox"},
	"mysql":    {Module: Module, DB: "mysql", Driver: "database/sql", Drivers: []string{"gorm"}, OutboxDir: "myoutbox"},
}

// Render returns the writer files of both databases (only the outbox
// package; migrations are applied from Migration at run time).
func Render() ([]templates.File, error) {
	var out []templates.File
	for _, db := range []string{"postgres", "mysql"} {
		files, err := templates.Render(Configs[db], "outbox")
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	return out, nil
}

// Migration returns the up migration SQL of db.
func Migration(db string) (string, error) {
	c := Configs[db]
	c.Migrations = "sql"
	files, err := templates.Render(c, "migrations")
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".up.sql") {
			b.Write(f.Content)
		}
	}
	return b.String(), nil
}
