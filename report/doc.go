// Package report owns the output contract of an outbox migration: six lines
// (dual writes replaced, outbox, relay, ordering key, consumers, ops)
// derived from the repository's state, never from memory.
//
// Sources, per field:
//
//	Dual writes replaced  .outboxify/fixes.json (written by `outboxify fix`) for what
//	                      was replaced; scan findings (dual-write rules) for what remains
//	Outbox                the migration creating the outbox table; call sites of the
//	                      generated writer's Insert and SQL inserts into the outbox
//	                      table, grouped by enclosing function and transaction handle
//	Relay                 the generated relay (claim query, advisory locks, --shards in
//	                      deploy files or the flag default), a Debezium EventRouter
//	                      connector config, or managed CDC (DynamoDB Streams, Mongo
//	                      change streams) in the code
//	Ordering key          aggregate_id, and whether the relay publisher (or the
//	                      connector) sets the broker key from it
//	Consumers             the consumer analyzer (analyzer/consumer) over the loaded
//	                      packages: inbox, idempotent upserts, idempotency keys
//	Ops                   cleanup schedule (--cleanup-every, a CronJob), the alert rule
//	                      on oldest unpublished age (replication-slot lag with
//	                      Debezium), the runbook documenting replay
//
// A field that cannot be found says so and which command produces it.
//
// API for the CLI and for `fix` and `generate`, which end with the same
// report:
//
//	r, err := report.Build(dir, report.Options{Patterns: []string{"./..."}})
//	os.Stdout.WriteString(r.Markdown())  // the six contract lines
//	b, err := r.JSON()                   // the same as data; schema in schema.json
//	r.DualWritesRemain()                 // true -> exit 1 (CI gate)
//
// Build loads the packages itself through package scan (after fix has
// written its files, so the report shows the new state). When the packages
// do not load (generated code before `go get`), Build still returns the
// report: Report.LoadErrors lists the package errors, and the dual-write and
// consumer lines say they were not checked; the CLI then exits 2.
//
// The JSON form is described by schema.json (embedded as Schema; Validate
// checks a document against it).
package report
