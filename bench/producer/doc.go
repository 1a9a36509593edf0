// Package producerbench measures what the generated outbox writer
// (outbox.Insert) costs the business transaction that calls it: against a
// plain INSERT of the same row in the same transaction, and against
// watermill-sql's publisher in the transaction, per driver, on PostgreSQL
// and MariaDB. It is a separate module so that outboxify itself does not
// depend on watermill or gorm. See docs/benchmarks.md for the command and
// results.
package producerbench

//go:generate go run ./internal/render
