package relaytest

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/internal/testenv"
	"github.com/outboxify/outboxify/templates"
)

// TestAlertRules checks the generated Prometheus rules with promtool (check
// rules) and runs their unit tests (test rules): the age alert fires when
// every relay is stopped, the exporter-absent and dead-letter alerts fire,
// a healthy relay does not alert. promtool is the Debian package prometheus.
func TestAlertRules(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		msg := "promtool not found (apt-get install prometheus); alert rules not checked"
		if testenv.InCI() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	for _, table := range []string{"", "billing_outbox"} {
		files, err := templates.Render(templates.Config{Module: ModulePath, Table: table}, "ops")
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		names := map[string]bool{}
		for _, f := range files {
			names[path.Base(f.Path)] = true
			if err := os.WriteFile(filepath.Join(dir, path.Base(f.Path)), f.Content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, want := range []string{"outbox-alerts.yml", "outbox-alerts_test.yml", "OUTBOX.md", "cleanup-cronjob.yaml", "cleanup.crontab"} {
			if !names[want] {
				t.Fatalf("ops render lacks %s (got %v)", want, names)
			}
		}
		for _, args := range [][]string{{"check", "rules", "outbox-alerts.yml"}, {"test", "rules", "outbox-alerts_test.yml"}} {
			cmd := exec.Command(promtool, args...)
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("promtool %s (table %q): %v\n%s", strings.Join(args, " "), table, err, out)
			}
			t.Logf("promtool %s: %s", strings.Join(args, " "), strings.TrimSpace(string(out)))
		}
	}
}

// TestOpsNotRenderedForDebezium: in CDC mode there is no polling relay, so
// neither the relay nor its ops files are generated.
func TestOpsNotRenderedForDebezium(t *testing.T) {
	files, err := templates.Render(templates.Config{Module: ModulePath, Relay: "debezium"}, "relay", "relaycmd", "ops")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 0 {
		t.Fatalf("debezium mode rendered relay files: %v", files)
	}
}

// TestUnsupportedBrokerIsAnError: a broker without a publisher is a clear
// render error, not a relay that does not compile.
func TestUnsupportedBrokerIsAnError(t *testing.T) {
	_, err := templates.Render(templates.Config{Module: ModulePath, Broker: "kinesis"}, "relay")
	if err == nil || !strings.Contains(err.Error(), `broker "kinesis" is not supported`) {
		t.Fatalf("render with broker kinesis: err = %v", err)
	}
}
