package dualwrite

import "go/token"

// Rule ids are stable: CI configs, SARIF uploads and suppressions name them.
const (
	RuleAfterWrite     = "OBX001" // publish after an autocommitted DB write: a crash in between loses the event
	RuleAfterCommit    = "OBX002" // publish after Commit: a crash in between loses the event
	RuleInTx           = "OBX003" // publish inside the transaction before Commit: announces data that may roll back
	RuleBeforeWrite    = "OBX004" // publish before the DB write: announces data that may never exist
	RuleAsync          = "OBX005" // publish in a goroutine, defer or retry loop next to a write
	RuleOutboxOther    = "OBX006" // outbox row written on a different handle/transaction than the business write
	RuleConsumerInbox  = "OBX101" // consumer handler writes without inbox/idempotency (report issue)
	RuleExternalNoKey  = "OBX102" // consumer handler calls an external API without an idempotency key
	RuleUnusedSuppress = "OBX900" // an //outboxify:ignore that matches nothing, or lacks a reason
)

// Call is one end of a finding: the publish or the DB write.
type Call struct {
	Pos      token.Pos      // position in the analyzed file set
	Position token.Position // resolved position (absolute filename)
	// Name is the catalog's full name of the API reached, e.g.
	// "(*database/sql.Tx).ExecContext" or "(*github.com/segmentio/kafka-go.Writer).WriteMessages".
	Name string
	// Via is the call chain from the function holding the finding to the
	// catalog call, when it crossed functions: each element a function's full
	// name, outermost first. Empty when the catalog call is direct.
	Via []string
	// ViaInterface is true when resolving the chain needed an interface
	// method mapped to its implementations in the loaded packages (CLI only).
	ViaInterface bool
}

// Finding is one dual write, as typed data for the CLI, fix and report.
type Finding struct {
	Rule    string
	Message string
	// Summary is the message in one short line (what, the calls without
	// their chains, where the write is), for the CLI's text output; empty
	// when Message is short already.
	Summary string
	Func    string // full name of the enclosing function
	Publish Call
	Write   *Call  // nil only for rules without a paired write
	Store   string // store of record written: sql, dynamodb, mongodb, cassandra, firestore
	Advice  string // what to do (pattern that fits the store, manual steps)
	// Fingerprint identifies the finding across line moves and unrelated
	// edits (baselines, SARIF partialFingerprints). scan.Load sets it;
	// the analyzer alone (go vet, golangci-lint) leaves it empty.
	Fingerprint string
}

// Result is the analyzer's result for one package: its findings in source order.
type Result struct {
	Findings []Finding
}

// Short is the finding's one-line text: Summary, or Message without one.
func (f Finding) Short() string {
	if f.Summary != "" {
		return f.Summary
	}
	return f.Message
}
