package report

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

var deleteOutbox = regexp.MustCompile("(?i)DELETE\\s+FROM\\s+[`\"]?outbox\\b")

func (t *tree) writerDeletes(dir string) bool {
	_, ok := t.find(and(isGo, inDir(dir)), deleteOutbox)
	return ok
}

const (
	runFix      = "run `outboxify fix`"
	runGenerate = "run `outboxify generate`"
	notLoaded   = "make the packages build (`go mod tidy`, `go build ./...`) and run again"
)

// fill writes each field's Found, Text and Missing from the data.
func (r *Report) fill() {
	// Dual writes replaced.
	d := &r.DualWrites
	var parts []string
	if len(d.Replaced) > 0 {
		var locs []string
		for _, x := range d.Replaced {
			at := x.After
			if at.File == "" {
				at = x.Before
			}
			locs = append(locs, at.String())
		}
		parts = append(parts, strings.Join(locs, ", "))
	}
	switch {
	case len(r.LoadErrors) > 0:
		d.Found = false
		if len(parts) == 0 {
			parts = append(parts, "unknown")
		}
		parts = append(parts, fmt.Sprintf("remaining dual writes not checked: %d package %s", len(r.LoadErrors), plural(len(r.LoadErrors), "error", "errors")))
		d.Missing = notLoaded
	case len(d.Replaced) == 0 && len(d.Remaining) == 0:
		d.Found = true
		if d.FixesRecorded {
			parts = append(parts, "none needed; no dual writes remain")
		} else {
			parts = append(parts, "none (no dual writes found)")
		}
	case len(d.Remaining) > 0:
		d.Found = false
		if len(parts) == 0 {
			parts = append(parts, "none")
		}
		var locs []string
		for _, x := range d.Remaining {
			locs = append(locs, fmt.Sprintf("%s (%s)", x.Location, x.Rule))
		}
		parts = append(parts, "not replaced: "+strings.Join(locs, ", "))
		if !d.FixesRecorded {
			d.Missing = runFix
		} else {
			d.Missing = "fix the listed dual writes by hand: `outboxify scan -v` shows what to do for each, `outboxify fix --diff` what fix would change (both write nothing)"
		}
	default:
		d.Found = true
	}
	if n := manualDualWrites(d.Manual); n > 0 && d.Scanned && len(d.Remaining) == 0 {
		// fix left them, but they no longer show up in scan: a person fixed them.
		// Consumer findings fix also leaves are not dual writes: not counted here.
		parts = append(parts, fmt.Sprintf("%d fixed by hand", n))
	}
	d.Text = strings.Join(parts, "; ")
	if d.Missing != "" && !d.Found {
		d.Text += " — " + d.Missing
	}

	// Outbox.
	o := &r.Outbox
	switch {
	case o.Migration == "":
		o.Missing = runGenerate
		o.Text = "not found: no migration creates the outbox table — " + runGenerate
	case o.Transactions == 0:
		o.Missing = runFix
		o.Text = fmt.Sprintf("migration %s; written in 0 transactions (no outbox insert call sites) — %s", o.Migration, runFix)
	default:
		o.Found = true
		o.Text = fmt.Sprintf("migration %s; written in %d %s", o.Migration, o.Transactions, plural(o.Transactions, "transaction", "transactions"))
	}

	// Relay.
	rl := &r.Relay
	rl.Found = true
	switch rl.Mode {
	case RelayLeader:
		rl.Text = "polling (single leader via advisory lock)"
	case RelayShards:
		rl.Text = fmt.Sprintf("polling (%d shards, each owned via advisory lock)", rl.Shards)
	case RelayDebezium:
		rl.Text = "Debezium EventRouter -> " + rl.Topics
	case RelayManagedCDC:
		rl.Text = "managed CDC (" + rl.Store + ")"
	case RelayUnlocked:
		rl.Found = false
		rl.Missing = runGenerate
		rl.Text = fmt.Sprintf("polling without a leader or shard lock (%s): relays can reorder an aggregate's events — %s", rl.Evidence[0], runGenerate)
	default:
		rl.Found = false
		rl.Missing = runGenerate
		rl.Text = "not found: no relay, Debezium connector or managed CDC — " + runGenerate
	}

	// Ordering key.
	k := &r.OrderingKey
	switch {
	case r.Relay.Mode == RelayManagedCDC:
		// The stream carries each item's changes in order: the item key
		// is the ordering key.
		k.Found = true
		k.Text = "the item key; " + r.Relay.Store + " keeps per-item order"
	case k.Column == "":
		k.Missing = runGenerate
		k.Text = "not found: no relay publisher to read — " + runGenerate
	case k.BrokerKeySet:
		k.Found = true
		k.Text = "aggregate_id; broker key set"
	case k.Keyless != "":
		k.Found = true
		k.Text = fmt.Sprintf("aggregate_id; %s has no message key (per-aggregate order held by the relay)", k.Keyless)
	default:
		k.Missing = runGenerate
		k.Text = fmt.Sprintf("aggregate_id; broker key not set in %s — %s", k.Evidence.File, runGenerate)
	}

	// Consumers.
	c := &r.Consumers
	c.Found = true
	parts = nil
	if len(c.Inbox) > 0 {
		parts = append(parts, "inbox table in "+strings.Join(c.Inbox, ", "))
	}
	if len(c.Idempotent) > 0 {
		parts = append(parts, "idempotent upserts in "+strings.Join(c.Idempotent, ", "))
	}
	if len(c.Keyed) > 0 {
		parts = append(parts, "idempotency key passed to "+strings.Join(c.Keyed, ", "))
	}
	if len(c.Unguarded) > 0 {
		var l []string
		for _, p := range c.Unguarded {
			l = append(l, fmt.Sprintf("%s (%s)", p.Package, p.Location))
		}
		parts = append(parts, "no inbox: "+strings.Join(l, ", "))
	}
	if len(c.Unkeyed) > 0 {
		var l []string
		for _, p := range c.Unkeyed {
			l = append(l, fmt.Sprintf("%s (%s)", p.Message, p.Location))
		}
		parts = append(parts, "no idempotency key: "+strings.Join(l, ", "))
	}
	if len(r.LoadErrors) > 0 {
		c.Found = false
		c.Missing = notLoaded
		parts = append(parts, "not checked: the packages do not load — "+notLoaded)
	} else if c.Count == 0 {
		parts = append(parts, "no broker consumers found")
	} else if len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%d %s without database writes or external calls", c.Count, plural(c.Count, "consumer", "consumers")))
	}
	if len(c.Unguarded)+len(c.Unkeyed) > 0 && c.Found {
		c.Missing = "add the inbox (see the generated inbox package) or pass the message id as idempotency key"
	}
	c.Text = strings.Join(parts, "; ")

	// Ops.
	op := &r.Ops
	parts = nil
	var miss []string
	if op.Cleanup != "" {
		parts = append(parts, "cleanup "+op.Cleanup)
	} else {
		parts = append(parts, "cleanup not found")
		miss = append(miss, "cleanup schedule")
	}
	switch {
	case op.Alert != "" && op.AlertKind == "replication-slot-lag":
		parts = append(parts, "alert on replication-slot lag > "+op.Alert)
	case op.Alert != "":
		parts = append(parts, "alert on oldest unpublished > "+op.Alert)
	case r.Relay.Mode == RelayDebezium:
		parts = append(parts, "replication-slot lag alert not found")
		miss = append(miss, "alert rules")
	default:
		parts = append(parts, "oldest-unpublished alert not found")
		miss = append(miss, "alert rules")
	}
	if op.Runbook != "" {
		parts = append(parts, "replay procedure "+op.Runbook)
	} else {
		parts = append(parts, "replay procedure not found")
		miss = append(miss, "runbook")
	}
	op.Found = len(miss) == 0
	op.Text = strings.Join(parts, ", ") + "."
	if !op.Found {
		op.Missing = runGenerate
		op.Text = strings.TrimSuffix(op.Text, ".") + " — " + runGenerate + " (" + strings.Join(miss, ", ") + ")."
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Labels of the contract lines, in order.
var labels = []string{"Dual writes replaced", "Outbox", "Relay", "Ordering key", "Consumers", "Ops"}

// Markdown renders the six contract lines.
func (r *Report) Markdown() string {
	var b strings.Builder
	for i, f := range r.fields() {
		fmt.Fprintf(&b, "**%s:** %s\n", labels[i], f.Text)
	}
	return b.String()
}

// JSON renders the report as indented JSON (schema: schema.json).
func (r *Report) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return append(b, '\n'), nil
}

// manualDualWrites counts the dual-write findings among those fix left.
func manualDualWrites(ms []Manual) int {
	n := 0
	for _, m := range ms {
		if isDualWriteRule(m.Rule) {
			n++
		}
	}
	return n
}
