// Package e2e proves the outbox guarantees end to end, against generated
// code running as real processes: its tests run `outboxify generate`'s
// pipeline (generate.Plan and Apply) into a temporary module, add a small
// producer/consumer program (testdata/app, using the generated outbox writer
// and inbox), build the generated outbox-relay and that program with one
// `go build` per database × broker, then start them with exec.Command against
// the real servers and drive faults: SIGKILL between publish and mark,
// rolled-back transactions, several relays in leader and shard mode, every
// relay stopped (the age alert), terminated database connections, a broker
// that goes away and comes back, transactions that commit in the opposite
// order to their start, and a poison message. TestUnitOfWorkFixKill runs
// the real `outboxify fix` on a service in the dual-write shape of issue 18
// (testdata/uowapp: repository, publisher wrapper, a service calling both),
// then the rewritten service and the relay fix generated, with the service
// SIGKILLed between its write and its commit.
//
// Every test prints its counts (sent, committed, published, received,
// applied, duplicates, lost) and asserts lost == 0 and that the inbox holds
// exactly one row per applied message id.
//
// The package has no non-test code; run it with `go test ./e2e/`. Long soak
// variants run with OUTBOXIFY_LONG=1. Under CI=true a missing server fails.
package e2e
