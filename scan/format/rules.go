package format

import "github.com/outboxify/outboxify/analyzer/dualwrite"

// RuleDoc documents one scan rule for SARIF (and anyone listing rules).
type RuleDoc struct {
	ID    string
	Name  string // PascalCase, SARIF's reportingDescriptor.name
	Short string // one line
	Full  string // what can go wrong
	Help  string // what to do, in Markdown (plain enough to read as text)
	Level string // SARIF level: error, warning, note
}

// Rules are the scan rules in id order.
var Rules = []RuleDoc{
	{
		ID: dualwrite.RuleAfterWrite, Name: "PublishAfterAutocommittedWrite", Level: "error",
		Short: "Publish after an autocommitted database write",
		Full:  "The database write commits on its own and the broker publish follows; a crash, a deploy or a broker outage between the two loses the event while the data stays.",
		Help:  "Open a transaction on the same handle, do the write on it, insert an outbox row with the event on the same transaction, commit, and let the relay publish. `outboxify fix` does this rewrite.",
	},
	{
		ID: dualwrite.RuleAfterCommit, Name: "PublishAfterCommit", Level: "error",
		Short: "Publish after the transaction commits",
		Full:  "The transaction commits and the publish follows; a crash or a failed publish after Commit loses the event for data that is already visible.",
		Help:  "Insert an outbox row on the transaction before `Commit()` instead of publishing after it; the relay publishes once the row is committed. `outboxify fix` does this rewrite.",
	},
	{
		ID: dualwrite.RuleInTx, Name: "PublishInsideTransaction", Level: "error",
		Short: "Publish inside an open transaction",
		Full:  "The event is published while the transaction is still open; if it rolls back (or the commit fails) consumers have seen data that never existed.",
		Help:  "Replace the publish with an outbox insert on the same transaction; the relay publishes after commit. `outboxify fix` does this rewrite.",
	},
	{
		ID: dualwrite.RuleBeforeWrite, Name: "PublishBeforeWrite", Level: "error",
		Short: "Publish before the database write",
		Full:  "The event is published before the data it announces is written; if the write fails, consumers act on data that never exists.",
		Help:  "Open a transaction, do the write, then insert the outbox row after it on the same transaction and commit.",
	},
	{
		ID: dualwrite.RuleAsync, Name: "PublishInGoroutineDeferOrRetry", Level: "error",
		Short: "Publish in a goroutine, defer or retry loop next to a write",
		Full:  "The publish runs detached from the write (a goroutine, a defer or a retry loop), so it is still not atomic with it: the same lost or phantom events, harder to see.",
		Help:  "Insert the outbox row in the write's transaction and drop the goroutine or loop that only served the publish; the relay retries for you.",
	},
	{
		ID: dualwrite.RuleOutboxOther, Name: "OutboxOnOtherHandle", Level: "error",
		Short: "Outbox row written on a different handle than the business write",
		Full:  "The outbox insert uses another connection, ORM session or transaction than the write it belongs to, so the two do not commit together.",
		Help:  "Pass the write's transaction (`tx`) to the outbox insert.",
	},
	{
		ID: dualwrite.RuleConsumerInbox, Name: "ConsumerWithoutInbox", Level: "warning",
		Short: "Consumer handler writes without the inbox or an idempotent upsert",
		Full:  "Brokers and the outbox relay deliver at least once, so the handler sees some messages twice; its database write runs again on every redelivery.",
		Help:  "Insert the message id into the inbox table in the same transaction as the handler's writes (`INSERT ... ON CONFLICT DO NOTHING`, skip when it exists) and ack after commit, or make the write an upsert keyed by the entity.",
	},
	{
		ID: dualwrite.RuleExternalNoKey, Name: "ConsumerExternalCallWithoutIdempotencyKey", Level: "warning",
		Short: "Consumer handler calls an external API without an idempotency key",
		Full:  "A redelivered message repeats the handler's external side effect (a charge, an email) unless the call carries a key derived from the message id.",
		Help:  "Pass an idempotency key derived from the message id to the external API (payment providers accept one), or record the call in the inbox transaction first.",
	},
	{
		ID: dualwrite.RuleUnusedSuppress, Name: "UnusedOrBareSuppression", Level: "warning",
		Short: "Suppression that matches nothing or has no reason",
		Full:  "An `//outboxify:ignore` comment suppresses no finding, or gives no reason; stale suppressions hide future bugs.",
		Help:  "Remove the comment, or write `//outboxify:ignore RULE reason` on the line of the finding or above its function.",
	},
}

// ruleDoc returns the documentation of id, or a generic entry.
func ruleDoc(id string) RuleDoc {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	return RuleDoc{ID: id, Name: id, Level: "warning", Short: "outboxify finding " + id,
		Full: "outboxify finding " + id + ".", Help: "See the outboxify README."}
}
