package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/generate"
	"github.com/outboxify/outboxify/templates"
)

// TestGeneratedFiles renders what `outboxify generate` writes (the real
// templates) into a module with one service transaction and checks that the
// detectors read every generated piece: if a template changes shape, this
// fails. The generated Go needs `go get` before it loads, so dual writes and
// consumers are "not checked" here; the other four lines come from files.
func TestGeneratedFiles(t *testing.T) {
	goOffline(t)
	service := `package svc

import (
	"context"
	"database/sql"

	"example.com/gen/internal/outbox"
)

func Place(ctx context.Context, tx *sql.Tx, id string) error {
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id); err != nil {
		return err
	}
	return outbox.Insert(ctx, tx, outbox.Message{AggregateType: "orders", AggregateID: id, EventType: "OrderPlaced", Payload: []byte("{}")})
}
`
	cases := []struct {
		relay, broker string
		want          []string
	}{
		{"polling", "kafka-go", []string{
			"**Outbox:** migration migrations/",
			"; written in 1 transaction\n",
			"**Relay:** polling (single leader via advisory lock)\n",
			"**Ordering key:** aggregate_id; broker key set\n",
			"**Ops:** cleanup hourly (cron 17 * * * *), alert on oldest unpublished > 60 s, replay procedure deploy/outbox/OUTBOX.md.\n",
		}},
		{"polling", "nats", []string{
			"**Relay:** polling (single leader via advisory lock)\n",
			"**Ordering key:** aggregate_id; nats.go has no message key (per-aggregate order held by the relay)\n",
		}},
		{"debezium", "kafka-go", []string{
			"**Relay:** Debezium EventRouter -> orders\n",
			"**Ordering key:** aggregate_id; broker key set\n",
			"alert on replication-slot lag > 1 GiB",
		}},
	}
	for _, c := range cases {
		t.Run(c.relay+"-"+c.broker, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, content string) {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("go.mod", "module example.com/gen\n\ngo 1.26\n")
			write("svc/svc.go", service)
			cfg := templates.Config{DB: "postgres", Driver: "database/sql", Broker: c.broker, Migrations: "sql", Relay: c.relay}
			cs, err := generate.Plan(dir, cfg, generate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := cs.Apply(false); err != nil {
				t.Fatal(err)
			}
			r, err := Build(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			md := r.Markdown()
			for _, w := range c.want {
				if !strings.Contains(md, w) {
					t.Errorf("missing %q in\n%s", w, md)
				}
			}
		})
	}
}
