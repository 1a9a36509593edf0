package generate_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/internal/testenv"
	"github.com/outboxify/outboxify/templates"
)

func renderDebezium(t *testing.T, db string) map[string][]byte {
	t.Helper()
	files, err := templates.Render(templates.Config{Module: "example.com/m", DB: db, Relay: "debezium"}, "debezium")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		out[filepath.Base(f.Path)] = f.Content
	}
	return out
}

// The EventRouter must be mapped to our column names (Debezium's defaults
// are aggregateid, aggregatetype, type) and the capture limited to the
// outbox table.
func TestDebeziumConnectorConfig(t *testing.T) {
	for _, db := range []string{"postgres", "mysql"} {
		files := renderDebezium(t, db)
		var conn struct {
			Name   string            `json:"name"`
			Config map[string]string `json:"config"`
		}
		if err := json.Unmarshal(files["connector.json"], &conn); err != nil {
			t.Fatalf("%s connector.json: %v", db, err)
		}
		want := map[string]string{
			"transforms.outbox.type":                              "io.debezium.transforms.outbox.EventRouter",
			"transforms.outbox.table.field.event.id":              "id",
			"transforms.outbox.table.field.event.key":             "aggregate_id",
			"transforms.outbox.table.field.event.payload":         "payload",
			"transforms.outbox.route.by.field":                    "aggregate_type",
			"transforms.outbox.route.topic.replacement":           "${routedByValue}",
			"transforms.outbox.table.expand.json.payload":         "true",
			"transforms.outbox.table.fields.additional.placement": "id:header:outbox-id,event_type:header:event-type,headers:header:outbox-headers",
			"heartbeat.interval.ms":                               "10000",
		}
		if db == "postgres" {
			want["table.include.list"] = "public.outbox"
			want["publication.autocreate.mode"] = "filtered"
			want["plugin.name"] = "pgoutput"
		} else {
			want["table.include.list"] = "${env:OUTBOX_DB_NAME}.outbox"
		}
		for k, v := range want {
			if conn.Config[k] != v {
				t.Errorf("%s: %s = %q, want %q", db, k, conn.Config[k], v)
			}
		}
		if db == "postgres" && !strings.Contains(string(files["DEBEZIUM.md"]), "max_slot_wal_keep_size") {
			t.Errorf("DEBEZIUM.md lacks the replication slot guidance")
		}
	}
	if files := renderDebezium(t, "postgres"); len(files) != 4 {
		t.Errorf("postgres debezium files: %d, want connector, doc, exporter queries, rules", len(files))
	}
	none, err := templates.Render(templates.Config{Module: "example.com/m", Relay: "polling"}, "debezium")
	if err != nil || len(none) != 0 {
		t.Errorf("polling relay renders %d Debezium files (%v), want none", len(none), err)
	}
}

// The slot alert rules pass promtool check and fire when they should
// (promtool test rules): lag over 1 GiB for 10 minutes, an inactive slot,
// metrics absent.
func TestDebeziumAlertRules(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		msg := "promtool not installed (Debian package prometheus; .ci/run installs it)"
		if testenv.InCI() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir := t.TempDir()
	files := renderDebezium(t, "postgres")
	if err := os.WriteFile(filepath.Join(dir, "debezium-rules.yml"), files["debezium-rules.yml"], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules_test.yml"), []byte(slotRulesTest), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"check", "rules", "debezium-rules.yml"}, {"test", "rules", "rules_test.yml"}} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

const slotRulesTest = `rule_files: [debezium-rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      # lag grows 200 MB a minute: over 1 GiB from minute 6
      - series: 'outbox_replication_slot_lag_bytes{slot_name="outbox_debezium"}'
        values: '0+200000000x30'
      # the connector stops streaming at minute 5
      - series: 'outbox_replication_slot_active{slot_name="outbox_debezium"}'
        values: '1x4 0x26'
    alert_rule_test:
      - eval_time: 14m
        alertname: OutboxReplicationSlotLag
        exp_alerts: []
      - eval_time: 17m
        alertname: OutboxReplicationSlotLag
        exp_alerts:
          - exp_labels: {severity: warning, slot_name: outbox_debezium}
            exp_annotations:
              summary: "Debezium slot outbox_debezium holds back 3.166GiB of WAL"
              description: "The outbox connector is behind or stopped; PostgreSQL keeps WAL until it catches up (capped by max_slot_wal_keep_size). See DEBEZIUM.md."
      - eval_time: 8m
        alertname: OutboxReplicationSlotInactive
        exp_alerts: []
      - eval_time: 11m
        alertname: OutboxReplicationSlotInactive
        exp_alerts:
          - exp_labels: {severity: critical, slot_name: outbox_debezium}
            exp_annotations:
              summary: "No connector streams from Debezium slot outbox_debezium"
              description: "Outbox events are not being published; the slot retains WAL meanwhile. See DEBEZIUM.md."
      - eval_time: 20m
        alertname: OutboxReplicationSlotAbsent
        exp_alerts: []
  - interval: 1m
    input_series:
      - series: 'up{job="postgres"}'
        values: '1x20'
    alert_rule_test:
      - eval_time: 11m
        alertname: OutboxReplicationSlotAbsent
        exp_alerts:
          - exp_labels: {severity: critical, slot_name: outbox_debezium}
            exp_annotations:
              summary: "Debezium outbox slot metrics are missing"
              description: "The slot outbox_debezium does not exist or postgres_exporter is not scraping it."
`
