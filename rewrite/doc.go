// Package rewrite owns `outboxify fix`'s code rewriting: given the loaded
// packages and the scan's findings, it turns each dual write into an outbox
// insert on the business transaction (opening one where there is none), or
// explains why a person must do it. It edits syntax with dave/dst so comments
// and layout survive, returns edited files as data (Fix), type-checks them
// again (Verify) and writes them atomically (WriteFiles).
//
// Strategies, chosen per finding:
//   - in a transaction: the publish becomes outbox.Insert on that transaction,
//     placed before Commit (moving the values it needs along), and the
//     publish with the error handling that only served it goes away;
//   - no transaction: one is opened on the write's handle with the client's
//     own begin/rollback/commit idiom, the writes move onto it, the outbox
//     row is inserted, then it commits;
//   - manual: anything that cannot be rewritten without guessing is left
//     unchanged and reported with a reason and advice.
//
// The broker message maps to an outbox row through publishers, a table keyed
// by the publish API's full name (see catalog.go).
package rewrite
