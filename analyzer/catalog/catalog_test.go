package catalog

import (
	"strings"
	"testing"
)

func TestPackageOfAndShort(t *testing.T) {
	for _, tc := range []struct{ name, pkg, short string }{
		{"(*database/sql.Tx).ExecContext", "database/sql", "(*sql.Tx).ExecContext"},
		{"github.com/jackc/pgx/v5.BeginFunc", "github.com/jackc/pgx/v5", "pgx.BeginFunc"},
		{"(github.com/nats-io/nats.go.JetStream).Publish", "github.com/nats-io/nats.go", "(nats.JetStream).Publish"},
		{"(*github.com/segmentio/kafka-go.Writer).WriteMessages", "github.com/segmentio/kafka-go", "(*kafka.Writer).WriteMessages"},
		{"(github.com/redis/go-redis/v9.cmdable).Publish", "github.com/redis/go-redis/v9", "(redis.cmdable).Publish"},
	} {
		if got := PackageOf(tc.name); got != tc.pkg {
			t.Errorf("PackageOf(%q) = %q, want %q", tc.name, got, tc.pkg)
		}
		if got := Short(tc.name); got != tc.short {
			t.Errorf("Short(%q) = %q, want %q", tc.name, got, tc.short)
		}
	}
}

func TestRowsAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range rows {
		if seen[e.Name] {
			t.Errorf("duplicate row %s", e.Name)
		}
		seen[e.Name] = true
		if PackageOf(e.Name) == "" {
			t.Errorf("row %s: no package in name", e.Name)
		}
		switch e.Kind {
		case Write, Query, Begin, Commit, Rollback, TxFunc, CacheWrite:
			if e.Store == "" {
				t.Errorf("row %s: no store", e.Name)
			}
		case Publish:
			if e.Broker == "" || (e.Message.Topic == "" && e.Message.Exchange == "") || e.Message.Value == "" {
				t.Errorf("row %s: publish without broker, destination or value mapping", e.Name)
			}
		}
		if e.Kind == Query && e.SQL == NoArg && !strings.HasSuffix(recvName(e.Name), "Stmt") { // a statement's SQL is the one it was prepared with
			t.Errorf("row %s: query row without SQL argument", e.Name)
		}
		if e.Kind == TxFunc && e.Func == NoArg {
			t.Errorf("row %s: callback row without callback argument", e.Name)
		}
		switch {
		case e.Kind == Later:
			// a router or scheduler: not a client, so a package importing
			// it does not become one the analyzer must read
			if e.Func == NoArg {
				t.Errorf("row %s: Later row without callback argument", e.Name)
			}
			if Default().IsClient(PackageOf(e.Name)) || Default().HasPackage(PackageOf(e.Name)) {
				t.Errorf("row %s: a Later-only package counted as a client", e.Name)
			}
		case !Default().IsClient(PackageOf(e.Name)):
			t.Errorf("row %s: package not under a client module", e.Name)
		}
	}
}

func TestClassifySQL(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want SQLKind
	}{
		{"SELECT id FROM orders", SQLRead},
		{"select * from orders for update", SQLRead},
		{"INSERT INTO orders(id) VALUES ($1) RETURNING id", SQLDML},
		{"with x as (update orders set a=1 returning id) select id from x", SQLDML},
		{"INSERT INTO orders(id) VALUES (?) ON DUPLICATE KEY UPDATE id=id", SQLDML},
		{"DELETE FROM orders WHERE id=$1", SQLDML},
		{"INSERT INTO outbox (id, payload) VALUES ($1, $2)", SQLOutboxInsert},
		{`insert into "public"."outbox_messages"(id) values ($1)`, SQLOutboxInsert},
		{"SELECT id FROM outbox WHERE published_at IS NULL FOR UPDATE SKIP LOCKED", SQLOutboxRelay},
		{"UPDATE outbox SET published_at = now() WHERE id = ANY($1)", SQLOutboxRelay},
		{"DELETE FROM outbox WHERE published_at < now()", SQLOutboxRelay},
		{"SELECT o.seq FROM outbox o WHERE o.published_at IS NULL ORDER BY o.seq LIMIT $1 FOR UPDATE OF o SKIP LOCKED", SQLOutboxRelay},
		{"INSERT INTO inbox (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", SQLInbox},
		{"INSERT IGNORE INTO `app`.`inbox`(consumer, message_id) VALUES (?, ?)", SQLInbox},
		{`INSERT INTO "inbox"(consumer, message_id) VALUES ('mailer', $1) ON CONFLICT DO NOTHING`, SQLInbox},
		{"DELETE FROM inbox WHERE (consumer, message_id) IN (SELECT consumer, message_id FROM inbox WHERE received_at < now() LIMIT $2)", SQLInbox},
		{"WITH i AS (INSERT INTO inbox (consumer, message_id) VALUES ($1, $2)) UPDATE orders SET paid = true", SQLDML},
		{"SELECT count(*) FROM inbox", SQLRead},
	} {
		if got := ClassifySQL(tc.sql); got != tc.want {
			t.Errorf("ClassifySQL(%q) = %d, want %d", tc.sql, got, tc.want)
		}
	}
}

func TestLooksLikeSQL(t *testing.T) {
	for s, want := range map[string]bool{
		"SELECT 1":                             true,
		"\n  update outbox set a = 1":          true,
		"(SELECT 1) UNION (SELECT 2)":          true,
		"with x as (select 1) select * from x": true,
		"select from outbox failed: %w":        true, // starts like SQL; ClassifySQL decides
		"read from outbox":                     false,
		"outboxify-selftest:":                  false,
		"SELECT":                               false,
	} {
		if got := LooksLikeSQL(s); got != want {
			t.Errorf("LooksLikeSQL(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestParseKey(t *testing.T) {
	for _, e := range Default().Entries() {
		k, ok := parseKey(e.Name)
		if !ok || k.pkg != PackageOf(e.Name) || k.name == "" {
			t.Errorf("parseKey(%q) = %+v, %v", e.Name, k, ok)
		}
		if Default().byKey[k] == nil {
			t.Errorf("row %s not reachable by key", e.Name)
		}
	}
}

// TestPullConsumers: the pull-style consumer entry points (the handler is
// the code after the call) are Consume rows without a callback argument.
func TestPullConsumers(t *testing.T) {
	for _, name := range []string{
		"(*github.com/segmentio/kafka-go.Reader).FetchMessage",
		"(*github.com/segmentio/kafka-go.Reader).ReadMessage",
		"(*github.com/nats-io/nats.go.Subscription).Fetch",
		"(*github.com/nats-io/nats.go.Subscription).NextMsg",
		"(*github.com/rabbitmq/amqp091-go.Channel).Consume",
		"(*github.com/rabbitmq/amqp091-go.Channel).ConsumeWithContext",
		"(*github.com/streadway/amqp.Channel).Consume",
	} {
		e, ok := Default().Lookup(name)
		if !ok || e.Kind != Consume || e.Func != NoArg {
			t.Errorf("%s: want a Consume row without a callback, got %+v (found %v)", name, e, ok)
		}
	}
}

// recvName is the receiver type name of a row's full name ("(*pkg.T).M" -> "T").
func recvName(full string) string {
	i := strings.Index(full, ")")
	if i < 0 {
		return ""
	}
	r := full[:i]
	return r[strings.LastIndex(r, ".")+1:]
}

// TestShortInstantiated: each qualified name in an instantiated generic
// type's method is shortened on its own.
func TestShortInstantiated(t *testing.T) {
	for in, want := range map[string]string{
		"(eda-in-golang/internal/am.MessagePublisher[eda-in-golang/internal/ddd.Event]).Publish": "(am.MessagePublisher[ddd.Event]).Publish",
		"(*github.com/segmentio/kafka-go.Writer).WriteMessages":                                  "(*kafka.Writer).WriteMessages",
		"(shapes/q.Port[*shapes/q.Job, github.com/jackc/pgx/v5.Row]).Send":                       "(q.Port[*q.Job, pgx.Row]).Send",
	} {
		if got := Short(in); got != want {
			t.Errorf("Short(%q) = %q, want %q", in, got, want)
		}
	}
}
