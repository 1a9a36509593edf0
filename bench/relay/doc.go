// Package relaybench measures the generated relay (PostgreSQL -> NATS
// JetStream) against its raw limits and against watermill's forwarder, in
// one run. It is a separate module so that outboxify itself does not depend
// on watermill. See docs/benchmarks.md for the commands and results.
package relaybench

//go:generate go run ./internal/render
