package catalog

import "strings"

// SQLKind classifies a constant SQL statement.
type SQLKind uint8

const (
	SQLRead         SQLKind = iota // SELECT and anything not recognised as DML
	SQLDML                         // INSERT, UPDATE, DELETE, MERGE, REPLACE, UPSERT (also in a WITH)
	SQLOutboxInsert                // INSERT INTO an outbox table
	SQLOutboxRelay                 // reads, marks or deletes outbox rows: relay or cleanup work
)

// ClassifySQL classifies SQL text. Outbox tables are those whose name contains
// "outbox" (outbox, outbox_messages, app.outbox_events).
func ClassifySQL(sql string) SQLKind {
	s := strings.ToLower(sql)
	words := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '(' || r == ')' || r == ',' || r == ';'
	})
	dml, outboxInsert, outboxOther := false, false, false
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		switch w {
		case "insert", "replace", "upsert":
			dml = true
			if next == "into" && i+2 < len(words) && isOutbox(words[i+2]) || isOutbox(next) {
				outboxInsert = true
			}
		case "update":
			if i > 0 && (words[i-1] == "for" || words[i-1] == "do" || words[i-1] == "key") { // FOR UPDATE, ON CONFLICT DO UPDATE, ON DUPLICATE KEY UPDATE
				continue
			}
			dml = true
			if isOutbox(next) {
				outboxOther = true
			}
		case "delete", "merge", "truncate":
			dml = true
			if next == "from" && i+2 < len(words) && isOutbox(words[i+2]) || next == "into" && i+2 < len(words) && isOutbox(words[i+2]) || isOutbox(next) {
				outboxOther = true
			}
		case "from":
			if isOutbox(next) {
				outboxOther = true
			}
		}
	}
	switch {
	case outboxInsert && !outboxOther:
		return SQLOutboxInsert
	case outboxOther:
		return SQLOutboxRelay
	case dml:
		return SQLDML
	}
	return SQLRead
}

func isOutbox(table string) bool {
	table = strings.Trim(table, "`\"[]")
	if i := strings.LastIndexByte(table, '.'); i >= 0 {
		table = strings.Trim(table[i+1:], "`\"[]")
	}
	return strings.Contains(table, "outbox")
}
