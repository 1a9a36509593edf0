package catalog

import "strings"

// SQLKind classifies a constant SQL statement.
type SQLKind uint8

const (
	SQLRead         SQLKind = iota // SELECT and anything not recognised as DML
	SQLDML                         // INSERT, UPDATE, DELETE, MERGE, REPLACE, UPSERT (also in a WITH)
	SQLOutboxInsert                // INSERT INTO an outbox table
	SQLOutboxRelay                 // reads, marks or deletes outbox rows: relay or cleanup work
	// SQLInbox writes only inbox tables (INSERT INTO inbox ... ON CONFLICT
	// DO NOTHING, pruning): a consumer's dedupe bookkeeping, not data an
	// event announces.
	SQLInbox
	// SQLSchema is DDL (CREATE, ALTER, DROP, COMMENT, GRANT, a schema
	// string with seed rows) or bookkeeping of a migration tool's own table
	// (INSERT INTO schema_migrations): start-up work, not a business write.
	SQLSchema
)

// ClassifySQL classifies SQL text. Outbox tables are those whose name contains
// "outbox" (outbox, outbox_messages, app.outbox_events); inbox tables those
// whose name contains "inbox".
func ClassifySQL(sql string) SQLKind {
	s := strings.ToLower(sql)
	words := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '(' || r == ')' || r == ',' || r == ';'
	})
	// target returns the table a statement keyword at i writes: the first
	// word after it that is not a modifier (INTO, FROM, IGNORE, ONLY, ...).
	target := func(i int) string {
		for j := i + 1; j < len(words) && j < i+5; j++ {
			switch words[j] {
			case "into", "from", "ignore", "or", "only", "low_priority", "delayed", "high_priority", "quick":
				continue
			}
			return words[j]
		}
		return ""
	}
	if len(words) > 0 {
		switch words[0] {
		case "create", "alter", "drop", "comment", "grant", "revoke":
			return SQLSchema
		}
	}
	dml, inboxDML, outboxInsert, outboxOther, migration := false, false, false, false, false
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		switch w {
		case "insert", "replace", "upsert":
			switch t := target(i); {
			case isMigrationTable(t):
				migration = true
			case isOutbox(t):
				outboxInsert = true
			case isInbox(t):
				inboxDML = true
			default:
				dml = true
			}
		case "update":
			if i > 0 && (words[i-1] == "for" || words[i-1] == "do" || words[i-1] == "key" || words[i-1] == "on") { // FOR UPDATE, ON CONFLICT DO UPDATE, ON DUPLICATE KEY UPDATE, ON UPDATE CASCADE
				continue
			}
			switch t := target(i); {
			case isMigrationTable(t):
				migration = true
			case isOutbox(t):
				outboxOther = true
			case isInbox(t):
				inboxDML = true
			default:
				dml = true
			}
		case "delete", "merge", "truncate":
			if i > 0 && words[i-1] == "on" { // ON DELETE CASCADE
				continue
			}
			switch t := target(i); {
			case isMigrationTable(t):
				migration = true
			case isOutbox(t):
				outboxOther = true
			case isInbox(t) && w == "delete":
				inboxDML = true
			default:
				dml = true
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
	case inboxDML:
		return SQLInbox
	case migration:
		return SQLSchema
	}
	return SQLRead
}

// migrationTables are the bookkeeping tables of migration tools (goose,
// golang-migrate, atlas, sql-migrate, Flyway, dbmate, home-made migrators).
var migrationTables = []string{"migration", "schema_version", "goose_db_version", "atlas_schema_revisions", "gorp_migrations", "flyway_schema_history"}

func isMigrationTable(table string) bool {
	for _, m := range migrationTables {
		if tableContains(table, m) {
			return true
		}
	}
	return false
}

// LooksLikeSQL reports whether a string starts like an SQL statement, so
// constant strings that are not SQL (log lines, errors) are not classified.
func LooksLikeSQL(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n(")
	i := strings.IndexAny(s, " \t\r\n")
	if i <= 0 {
		return false
	}
	switch strings.ToLower(s[:i]) {
	case "select", "insert", "update", "delete", "with", "merge", "replace", "upsert", "truncate":
		return true
	}
	return false
}

func isOutbox(table string) bool { return tableContains(table, "outbox") }

func isInbox(table string) bool { return tableContains(table, "inbox") }

func tableContains(table, s string) bool {
	table = strings.Trim(table, "`\"[]")
	if i := strings.LastIndexByte(table, '.'); i >= 0 {
		table = strings.Trim(table[i+1:], "`\"[]")
	}
	return strings.Contains(table, s)
}

// NoEffectSQL reports whether text, run by an Exec-like call, cannot change
// data: empty (a connection check's ";") or a plain SELECT that calls no
// function but count (a function may write: SELECT pg_notify(...)).
func NoEffectSQL(text string) bool {
	s := strings.ToLower(strings.TrimSpace(strings.Trim(strings.TrimSpace(text), ";")))
	if s == "" {
		return true
	}
	// session settings and notifications of one connection: a tenant's
	// search_path (SET LOCAL search_path TO ...), a timeout, LISTEN
	if f := strings.Fields(s); len(f) > 0 && ClassifySQL(s) == SQLRead {
		switch f[0] {
		case "set", "reset", "show", "listen", "unlisten", "discard", "use":
			return true
		}
	}
	if !strings.HasPrefix(s, "select") || ClassifySQL(s) != SQLRead {
		return false
	}
	return strings.Count(s, "(") == strings.Count(s, "count(")
}
