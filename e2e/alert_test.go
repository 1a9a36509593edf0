package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/outboxify/outboxify/internal/testenv"
)

// TestAgeAlertWhenEveryRelayStops is check 4: with every relay stopped,
// `outbox-relay status --serve` (no relay, no leadership) keeps exporting
// the oldest pending age; it grows, and the generated alert rule fires on
// the scraped samples (promtool test rules with the scraped labels and
// values), while the samples of a relay that keeps up do not alert. The
// rule's own unit tests, the exporter-absent case included, are the relay's
// (templates/relaytest TestAlertRules); the exporter-absent case is run
// here too with the labels the exporter really uses.
func TestAgeAlertWhenEveryRelayStops(t *testing.T) {
	for _, s := range []stack{pgJetStream, myJetStream} {
		t.Run(s.String(), func(t *testing.T) {
			promtool := requirePromtool(t)
			e := newEnv(t, s)
			cons := e.consume()
			relays := []*proc{e.relay("relay-0", nil), e.relay("relay-1", nil)}
			port := freePort(t)
			status := start(t, "status", e.bin.relay, nil, "status", "--database-url", e.dsn, "--serve", fmt.Sprintf("127.0.0.1:%d", port))
			base := fmt.Sprintf("http://127.0.0.1:%d", port)
			eventually(t, 15*time.Second, "status --serve /healthz", func() bool { return httpOK(base + "/healthz") })

			p1 := e.produce("-aggs", "2", "-per", "5")
			e.waitDelivered(30 * time.Second)
			healthy := scrape(t, base)
			if healthy.value("outbox_oldest_pending_age_seconds") != 0 || healthy.value("outbox_pending_messages") != 0 {
				t.Fatalf("relays running and caught up, but the exporter says age %v, pending %v",
					healthy.value("outbox_oldest_pending_age_seconds"), healthy.value("outbox_pending_messages"))
			}

			for _, r := range relays {
				r.stop(t)
			}
			p2 := e.produce("-prefix", "late", "-aggs", "1", "-per", "5")
			first := scrape(t, base)
			time.Sleep(1500 * time.Millisecond)
			second := scrape(t, base)
			if got := second.value("outbox_pending_messages"); got != 5 {
				t.Errorf("pending = %v with every relay stopped, want 5", got)
			}
			a1, a2 := first.value("outbox_oldest_pending_age_seconds"), second.value("outbox_oldest_pending_age_seconds")
			if !(a1 > 0 && a2 >= a1+1) {
				t.Errorf("oldest pending age %v then %v 1.5 s later: want it growing while no relay runs", a1, a2)
			}
			// A 90 s outage without waiting 90 s: the rows were created 90 s earlier.
			backdate := `UPDATE outbox SET created_at = created_at - INTERVAL '90 seconds' WHERE published_at IS NULL`
			if s.db == "mysql" {
				backdate = `UPDATE outbox SET created_at = created_at - INTERVAL 90 SECOND WHERE published_at IS NULL`
			}
			if _, err := e.db.Exec(backdate); err != nil {
				t.Fatal(err)
			}
			stalled := scrape(t, base)
			age := stalled.value("outbox_oldest_pending_age_seconds")

			rules := findRules(t, e)
			threshold := ageThreshold(t, rules)
			t.Logf("scraped oldest pending age: healthy %v, stopped %v -> %v, after a 90 s outage %v; rule threshold %v s",
				healthy.value("outbox_oldest_pending_age_seconds"), a1, a2, age, threshold)
			if !(age > threshold) {
				t.Errorf("after a 90 s outage the age is %v, not above the rule's threshold %v", age, threshold)
			}
			if healthy.value("outbox_oldest_pending_age_seconds") > threshold {
				t.Errorf("healthy age above the threshold")
			}
			runPromtool(t, promtool, rules, healthy, stalled)

			// Restarting a relay clears the condition.
			r := e.relay("relay-2", nil)
			e.waitDelivered(30 * time.Second)
			if got := scrape(t, base).value("outbox_oldest_pending_age_seconds"); got != 0 {
				t.Errorf("age %v after a relay caught up, want 0", got)
			}
			r.stop(t)
			status.stop(t)
			c := cons.finish(t)
			e.verify(producerCounts{Sent: p1.Sent + p2.Sent, Committed: p1.Committed + p2.Committed}, c)
		})
	}
}

func requirePromtool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("promtool")
	if err != nil {
		msg := "promtool not found (Debian package prometheus): the alert rule is not evaluated"
		if testenv.InCI() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p
}

func httpOK(url string) bool {
	resp, err := http.Get(url)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// samples are scraped metrics: series (name{labels}) -> value.
type samples map[string]float64

var sampleRe = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)`)

func scrape(t *testing.T, base string) samples {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatalf("scrape: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := samples{}
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		m := sampleRe.FindStringSubmatch(sc.Text())
		if m == nil || strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		v, err := strconv.ParseFloat(m[3], 64)
		if err != nil {
			continue
		}
		out[m[1]+m[2]] = v
	}
	return out
}

// series returns the one series of metric name, with its labels.
func (s samples) series(name string) (string, float64, bool) {
	for k, v := range s {
		if k == name || strings.HasPrefix(k, name+"{") {
			return k, v, true
		}
	}
	return "", 0, false
}

func (s samples) value(name string) float64 {
	_, v, ok := s.series(name)
	if !ok {
		return -1
	}
	return v
}

// rule is one alerting rule of the generated rules file.
type rule struct {
	Alert       string            `yaml:"alert"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

type rulesFile struct {
	path  string
	rules []rule
}

// findRules reads the generated Prometheus rules file (the one alerting on
// outbox_oldest_pending_age_seconds) from the module's ops directory.
func findRules(t *testing.T, e *env) rulesFile {
	t.Helper()
	dir := filepath.Join(e.bin.module, filepath.FromSlash(e.bin.cfg.OpsDir))
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("generated ops directory: %v", err)
	}
	for _, en := range ents {
		if !strings.HasSuffix(en.Name(), ".yml") && !strings.HasSuffix(en.Name(), ".yaml") {
			continue
		}
		path := filepath.Join(dir, en.Name())
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Groups []struct {
				Rules []rule `yaml:"rules"`
			} `yaml:"groups"`
		}
		if yaml.Unmarshal(b, &doc) != nil {
			continue
		}
		rf := rulesFile{path: path}
		for _, g := range doc.Groups {
			rf.rules = append(rf.rules, g.Rules...)
		}
		for _, r := range rf.rules {
			if strings.Contains(r.Expr, "outbox_oldest_pending_age_seconds") && !strings.Contains(r.Expr, "absent(") {
				return rf
			}
		}
	}
	t.Fatalf("no generated Prometheus rules file in %s alerts on outbox_oldest_pending_age_seconds", dir)
	return rulesFile{}
}

func (rf rulesFile) find(t *testing.T, absent bool) rule {
	t.Helper()
	for _, r := range rf.rules {
		if strings.Contains(r.Expr, "outbox_oldest_pending_age_seconds") && strings.Contains(r.Expr, "absent(") == absent {
			return r
		}
	}
	t.Fatalf("%s has no rule on outbox_oldest_pending_age_seconds (absent=%v)", rf.path, absent)
	return rule{}
}

var thresholdRe = regexp.MustCompile(`>\s*([0-9.]+)\s*$`)

// ageThreshold is the number the age rule's expression compares with.
func ageThreshold(t *testing.T, rf rulesFile) float64 {
	t.Helper()
	r := rf.find(t, false)
	m := thresholdRe.FindStringSubmatch(strings.TrimSpace(r.Expr))
	if m == nil {
		t.Fatalf("age rule %s: expression %q does not end in > threshold", r.Alert, r.Expr)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// runPromtool evaluates the generated rules on the scraped samples: the
// stalled series (as scraped, growing 15 s per 15 s scrape while no relay
// runs) fires the age alert after its `for`; the healthy series does not;
// with no exporter at all the exporter-absent alert fires.
func runPromtool(t *testing.T, promtool string, rf rulesFile, healthy, stalled samples) {
	t.Helper()
	age, absentRule := rf.find(t, false), rf.find(t, true)
	stalledSeries, stalledAge, ok := stalled.series("outbox_oldest_pending_age_seconds")
	if !ok {
		t.Fatal("the exporter does not export outbox_oldest_pending_age_seconds")
	}
	healthySeries, _, _ := healthy.series("outbox_oldest_pending_age_seconds")
	labels := seriesLabels(stalledSeries)
	withJob := func(series string) string {
		return strings.TrimSuffix(series, "}") + `, job="outbox", instance="status"}`
	}
	expLabels := func(r rule) map[string]string {
		l := map[string]string{}
		for k, v := range r.Labels {
			l[k] = v
		}
		for k, v := range labels { // max by (...) / absent(...) keep the selector's labels
			if strings.Contains(r.Expr, k) {
				l[k] = v
			}
		}
		return l
	}
	type alert struct {
		Labels      map[string]string `yaml:"exp_labels"`
		Annotations map[string]string `yaml:"exp_annotations"`
	}
	type evalCase struct {
		EvalTime  string  `yaml:"eval_time"`
		Alertname string  `yaml:"alertname"`
		ExpAlerts []alert `yaml:"exp_alerts"`
	}
	type series struct {
		Series string `yaml:"series"`
		Values string `yaml:"values"`
	}
	type testCase struct {
		Interval string     `yaml:"interval"`
		Input    []series   `yaml:"input_series"`
		Alerts   []evalCase `yaml:"alert_rule_test"`
	}
	fire := func(r rule) []alert { return []alert{{Labels: expLabels(r), Annotations: r.Annotations}} }
	doc := map[string]any{
		"rule_files":          []string{rf.path},
		"evaluation_interval": "15s",
		"tests": []testCase{
			{ // every relay stopped: the scraped age, growing by 15 s per 15 s
				Interval: "15s",
				Input:    []series{{withJob(stalledSeries), fmt.Sprintf("%g+15x40", stalledAge)}},
				Alerts: []evalCase{
					{EvalTime: "0m", Alertname: age.Alert},
					{EvalTime: "5m", Alertname: age.Alert, ExpAlerts: fire(age)},
					{EvalTime: "5m", Alertname: absentRule.Alert},
				},
			},
			{ // relays running and caught up: the healthy scrape, steady
				Interval: "15s",
				Input:    []series{{withJob(healthySeries), fmt.Sprintf("%gx40", healthy.value("outbox_oldest_pending_age_seconds"))}},
				Alerts: []evalCase{
					{EvalTime: "9m", Alertname: age.Alert},
					{EvalTime: "9m", Alertname: absentRule.Alert},
				},
			},
			{ // no exporter at all
				Interval: "1m",
				Input:    []series{{`up{job="outbox", instance="status"}`, "0x20"}},
				Alerts: []evalCase{
					{EvalTime: "15m", Alertname: absentRule.Alert, ExpAlerts: fire(absentRule)},
					{EvalTime: "15m", Alertname: age.Alert},
				},
			},
		},
	}
	b, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "e2e-alerts_test.yml")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(promtool, "test", "rules", file).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool test rules on the scraped samples: %v\n%s\n--- test file:\n%s", err, out, b)
	}
	t.Logf("promtool test rules on the scraped samples (age %g, series %s): %s", stalledAge, stalledSeries, strings.TrimSpace(string(out)))
}

var labelRe = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"`)

func seriesLabels(series string) map[string]string {
	l := map[string]string{}
	for _, m := range labelRe.FindAllStringSubmatch(series, -1) {
		l[m[1]] = m[2]
	}
	return l
}
