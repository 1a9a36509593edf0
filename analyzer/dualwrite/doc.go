// Package dualwrite owns outboxify's detection: the go/analysis analyzer
// that reports dual writes (a store write and a broker publish without one
// transaction between them) and the typed findings scan, fix and report
// share (finding.go).
//
// # Rules
//
//   - OBX001 publish after an autocommitted write: a crash in between loses the event.
//   - OBX002 publish after Commit (in the function or in a callee): same.
//   - OBX003 publish inside the transaction before Commit: it announces data that may roll back.
//   - OBX004 publish before the write: it announces data that may never exist.
//   - OBX005 publish in a goroutine, a defer or a retry loop next to a write.
//   - OBX006 outbox row written on another handle than the write (a new ORM
//     session, the pool instead of the transaction, another *sql.Conn).
//   - OBX900 an //outboxify:ignore without a reason, or one that matches nothing.
//
// The catalog (package catalog) says which calls write, begin, commit,
// publish or insert an outbox row. Ordering questions ("can this publish run
// after that write?") are answered on the function's control-flow graph, so a
// read-only branch next to a writing one is not reported. A publish on an
// `if err != nil` path (a dead-letter publish after a failed write), in a
// function that reads or marks outbox rows (a relay), or with no write on
// its path is not reported; neither is code that inserts an outbox row in
// the same transaction.
//
// Relays: any call given constant SQL text that reads, marks or deletes an
// outbox table (a catalogued query, pgx Batch.Queue, a helper taking the
// query) makes the function relay work, and so are its callers, through
// facts and interface resolution alike: the generated relay claims in a
// store method behind an interface and publishes in the loop that calls it.
// Inbox tables: DML that only writes a table named like inbox (INSERT INTO
// inbox ... ON CONFLICT DO NOTHING, pruning) is a consumer's dedupe record,
// not a DB write; other writes in the same transaction still are. A call
// named Begin* that returns a client's transaction type (a team's own DB
// interface) opens a transaction. A DynamoDB TransactWriteItems whose items
// include a Put into a table named like outbox is an outbox write: the item
// commits with the rest. _test.go files are skipped unless Options.Tests or
// -tests is set.
//
// Beyond the catalog, a method returning database/sql.Result or a
// pgconn.CommandTag is a write (go-zero, home-made wrappers, sqlc's DBTX),
// and so is a method named like a query (Exec, QueryRow, ...) whose constant
// SQL is DML (sqlc on pgx). A prepared statement kept in a field is
// classified by the SQL the field was prepared with (stmts.go); SQL that a
// DB wrapper receives as a parameter is decided by the caller's constant
// (Effects.Query). A team's own interface that a client's publisher
// satisfies matches the client's row (catalog.MatchInterface).
//
// # Execution paths
//
// A finding is a write and a publish one call runs on one path. A closure
// handed to a call is part of the caller only if the callee runs it before
// returning, decided from the callee's body (runs.go; RunsFact across
// packages): a route, subscription or dispatcher registration, or a
// wrapper that returns a handler, runs none of it, and the closure is
// checked as its own unit; routers, cron schedulers and timers whose
// handler types are named (gin, echo, chi, fiber, robfig/cron, gocron,
// time.AfterFunc) are the catalog's Later rows, and the CLI keeps the
// bodies of library functions that take a func so it can read them. A
// write through a key-value cache interface with expiry (Set(ctx, key,
// v, ttl)) is a cache fill, whatever stores it. A callee that runs a closure in a transaction
// and commits is a transaction helper (the publish after it is OBX002).
// Start-up is not a request: DDL and migration bookkeeping are not writes,
// what a goroutine started on an endless loop does is the worker's own,
// New... constructors and main/init are wiring. A write only on an `err !=
// nil` branch or in a deferred compensation, a later write after a callee
// that wrote and published itself, and the two backends of one interface
// (a queue with a database-backed twin) on the same value are not
// partners. Code that runs only under go test is skipped unless tests are
// scanned. Closures and method values registered with an in-process
// dispatcher make the dispatcher's methods that call function values
// publishers (the CLI collects registrations program-wide).
//
// Suppression: `//outboxify:ignore [RULE] reason` on the publish's line, the
// line above it, or in the doc comment of its function.
//
// Configuration: .outboxify.yaml at the module root (package config), or the
// analyzer flags -config, -publishers, -writers, -exclude, -tests (under go
// vet: -outboxify.tests and so on).
//
// # Across functions: facts
//
// Without a Resolver, NewAnalyzer requires a facts analyzer that runs over
// every package of the build (dependencies included) and exports a FuncFact
// on each function or method that transitively writes, publishes or inserts
// an outbox row, with the chain of calls (Effect.Via). Inside a package the
// facts are computed to a fixed point; facts on methods and exported
// functions reach importers. It uses no SSA and no inspector, and skips
// packages that import no DB or broker client, directly or through another
// relevant package. This is what go vet (cmd/outboxify-vet) and the
// golangci-lint plugin run. Facts cannot follow a call through an interface.
//
// # Interface resolution (the CLI)
//
// The CLI loads the whole program, so it can map an interface method call
// to the implementations it loaded. It wires that in two lines:
//
//	pkgs, _ := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, patterns...)
//	a := dualwrite.NewAnalyzer(dualwrite.Options{
//		Resolver: dualwrite.ProgramResolver(pkgs, cfg), // cfg from config.Load; nil for none
//		Config:   cfg,
//		Tests:    tests,
//	})
//	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
//	// each root action's Result is a *dualwrite.Result
//
// With a Resolver the analyzer needs no facts analyzer and runs on the root
// packages only: the resolver summarises callees on demand from the loaded
// syntax (the same summary the facts hold) and resolves interface methods
// against the implementations among the loaded packages. A finding that
// needed such a resolution has Call.ViaInterface set on its publish or write,
// and its Via chain names the interface method first. Two more program-wide
// views count as such resolutions: a plain interface met only by an
// instantiation of a generic type (NewProducer[Event] returning
// *Producer[Event]) resolves to the instantiations the program writes, and
// a call of a func-typed struct field (p.publish(subj, data)) does what the
// values the program stores in that field do (a constructor's
// publish := conn.Publish, or a closure over JetStream).
//
// The difference between the CLI and go vet is exactly that: every go vet
// finding is a CLI finding, and the CLI-only findings are those with
// ViaInterface set (TestResolver asserts it on the fixtures).
//
// # Findings
//
// Each diagnostic has the rule id as Category and as the first word of its
// Message, URL pointing at this documentation, and the paired write's
// position in Related. The analyzer's result (*Result) carries the same
// findings as typed data: Publish and Write calls with catalog full names,
// Via chains, the store written and advice that fits it.
package dualwrite
