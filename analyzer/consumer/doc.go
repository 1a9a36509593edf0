// Package consumer owns the consumer-side rules of outboxify: a go/analysis
// Analyzer that finds broker consumers whose handler is not safe under
// redelivery.
//
// The relay delivers at least once, so every consumer sees some messages
// twice. A handler is safe when its database work goes through the inbox
// (INSERT INTO inbox ... ON CONFLICT DO NOTHING in the same transaction, or a
// call into an inbox package) or is an idempotent upsert (INSERT ... ON
// CONFLICT / ON DUPLICATE KEY, gorm clause.OnConflict). Two rules:
//
//	OBX101  the handler writes to the database without the inbox or an
//	        idempotent upsert: a redelivered message is applied twice.
//	OBX102  the handler calls an external API (payment, email: net/http
//	        Do/Post reached from payment- or email-like code, net/smtp, known
//	        SDKs, or full names given with -external) without an idempotency
//	        key derived from the message id: a redelivery repeats the side
//	        effect.
//
// Consumer entry points and DB writes come from the shared catalog
// (analyzer/catalog: Consume rows, Write and DML Query rows). The handler is the closure or named function passed to
// the entry point (sarama: the handler type's ConsumeClaim method), or, for
// pull APIs, the code after the call in the enclosing function. Calls from
// the handler into functions of the same package are walked one level (so
// an idempotency key passed at that call is seen); deeper calls, and calls
// into other packages, use a summary of what the callee reaches (a DB write
// without the inbox, the inbox, an external API), exported as a fact for
// exported functions and methods, so a handler calling repo.SetStatus in
// another package is found.
//
// NewAnalyzer builds an instance with .outboxify.yaml (extra writers,
// excluded paths) and configured external APIs; Analyzer uses the built-in
// catalog only.
//
// Findings use dualwrite.Finding with Publish holding the consumer entry
// point (the broker side of the pair) and, for OBX101, Write holding the
// unguarded DB write. The Result also lists every consumer found with its
// guard and external calls, which `outboxify report` prints.
package consumer
