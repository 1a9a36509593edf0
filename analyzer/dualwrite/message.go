package dualwrite

import (
	"fmt"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// message returns the finding's text (what can go wrong, where the paired
// write is) and the advice that fits the store written.
func message(rule string, p, w *event, wpos token.Position) (msg, advice string) {
	pub := describe(p.eff)
	wr := describe(w.eff)
	at := filepath.Base(wpos.Filename) + ":" + fmt.Sprint(wpos.Line)
	switch rule {
	case RuleAfterWrite:
		msg = fmt.Sprintf("publish %s after the autocommitted DB write %s at %s: if the process stops or the publish fails in between, the event is lost", pub, wr, at)
	case RuleAfterCommit:
		msg = fmt.Sprintf("publish %s after the transaction of %s at %s committed: if the process stops or the publish fails in between, the event is lost", pub, wr, at)
	case RuleInTx:
		msg = fmt.Sprintf("publish %s inside the transaction of %s at %s, before it commits: if the transaction rolls back, consumers act on data that never existed", pub, wr, at)
	case RuleBeforeWrite:
		msg = fmt.Sprintf("publish %s before the DB write %s at %s: if the write fails, consumers act on data that never existed", pub, wr, at)
	case RuleAsync:
		msg = fmt.Sprintf("publish %s %s next to the DB write %s at %s: it runs apart from the write's transaction, so a crash or rollback loses or invents the event", pub, asyncHow(p), wr, at)
	case RuleOutboxOther:
		msg = fmt.Sprintf("outbox insert %s is not in the transaction of the DB write %s at %s (another handle or session): the row and the event can disagree", pub, wr, at)
	}
	if e, ok := catalog.Default().Lookup(p.eff.Name); ok && e.Request && rule != RuleOutboxOther {
		return msg, "a request waits for a reply, which an outbox row cannot give: publish instead if the reply is not needed (then the outbox applies), or record the pending request in the write's transaction and let a worker send it until it is answered"
	}
	if p.eff.Broker == "river" && w.eff.Store == catalog.SQL && rule != RuleOutboxOther {
		return msg, "River: insert the job with InsertTx (or InsertManyTx) on the transaction of the write, so it commits with the write"
	}
	return msg, adviceFor(rule, w.eff.Store)
}

// summary is the finding in one short line: the calls by their short
// names, no chains and no advice (text output; -v and json add them).
func summary(rule string, p, w *event, wpos token.Position) string {
	pub, wr := catalog.Short(p.eff.Name), catalog.Short(w.eff.Name)
	at := filepath.Base(wpos.Filename) + ":" + fmt.Sprint(wpos.Line)
	switch rule {
	case RuleAfterWrite:
		return fmt.Sprintf("publish %s after the autocommitted DB write %s at %s: a crash in between loses the event", pub, wr, at)
	case RuleAfterCommit:
		return fmt.Sprintf("publish %s after the transaction of %s at %s committed: a crash in between loses the event", pub, wr, at)
	case RuleInTx:
		return fmt.Sprintf("publish %s inside the transaction of %s at %s: a rollback leaves an event for data that never existed", pub, wr, at)
	case RuleBeforeWrite:
		return fmt.Sprintf("publish %s before the DB write %s at %s: a failed write leaves an event for data that never existed", pub, wr, at)
	case RuleAsync:
		return fmt.Sprintf("publish %s %s, apart from the transaction of the DB write %s at %s", pub, asyncHow(p), wr, at)
	case RuleOutboxOther:
		return fmt.Sprintf("outbox insert %s outside the transaction of the DB write %s at %s", pub, wr, at)
	}
	return ""
}

func asyncHow(p *event) string {
	switch p.async {
	case asyncDefer:
		return "in a defer"
	case asyncRetry:
		return "in a retry"
	case syncCall:
		return "in a retry loop"
	}
	return "in a goroutine"
}

func describe(e *Effect) string {
	s := catalog.Short(e.Name)
	if len(e.Via) > 0 {
		vias := make([]string, len(e.Via))
		for i, v := range e.Via {
			vias[i] = catalog.Short(v)
		}
		s += " (via " + strings.Join(vias, " -> ")
		if e.ViaInterface {
			s += ", through an interface"
		}
		s += ")"
	}
	return s
}

func adviceFor(rule, store string) string {
	switch store {
	case catalog.DynamoDB:
		return "DynamoDB: put the event as an outbox item in the same TransactWriteItems call and publish it from DynamoDB Streams"
	case catalog.MongoDB:
		return "MongoDB: insert the event document in the same Mongo transaction (session WithTransaction) and publish it from a change stream"
	case catalog.Cassandra:
		return "Cassandra: write the event row in the same logged batch and publish it with CDC or a relay reading that table"
	case catalog.Firestore:
		return "Firestore: write the event document in the same RunTransaction and publish it from a Firestore trigger"
	case catalog.Spanner:
		return "Spanner: insert the event row in the same read-write transaction (BufferWrite an outbox mutation) and publish it with a relay or a change stream"
	case catalog.Datastore:
		return "Datastore: put the event entity in the same transaction (RunInTransaction) and let a relay publish it"
	case catalog.DaprState:
		return "Dapr: configure the state store's outbox (outboxPublishPubsub, outboxPublishTopic) and write the state with ExecuteStateTransaction instead of publishing after it"
	case catalog.LDAP:
		return "LDAP: a directory has no transaction a broker can join; write the event to an outbox (a SQL table, or a pending-event attribute on the entry) that a relay publishes, or publish from the directory's change log (persistent search, syncrepl)"
	case catalog.KV:
		return "key-value store: it has no transaction a broker can join; keep the pending event in the written record (or a pending-events key written with it) and let a relay publish and clear it, or publish from the store's change feed (a NATS KV watch)"
	case catalog.RethinkDB:
		return "RethinkDB: it has no multi-document transaction; publish from a changefeed on the written table, or keep the pending event in the written document and let a relay publish and clear it"
	}
	if rule == RuleOutboxOther {
		return "insert the outbox row with the transaction handle the write uses"
	}
	return "insert an outbox row in the write's transaction (outbox.Insert(ctx, tx, msg)) and let the relay publish"
}
