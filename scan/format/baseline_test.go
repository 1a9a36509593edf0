package format_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/scan/baseline"
	"github.com/outboxify/outboxify/scan/format"
)

// TestFingerprintAndStates: a scan's fingerprint is SARIF's partial
// fingerprint (numbered for identical findings) and each result carries
// its baselineState; absent entries are results of kind pass.
func TestFingerprintAndStates(t *testing.T) {
	base, fs := sample(t)
	fs[0].Fingerprint, fs[1].Fingerprint = "f00d", "f00d"
	bl := &format.Baseline{
		States: []string{baseline.Unchanged, baseline.New},
		Gone: []baseline.Gone{{
			Entry:   baseline.Entry{Fingerprint: "dead", Rule: "OBX002", Message: "publish after commit", Count: 2, Locations: []baseline.Location{{File: "svc/old.go", Line: 7}, {File: "svc/old.go", Line: 9}}},
			Missing: 2, Last: []baseline.Location{{File: "svc/old.go", Line: 7}, {File: "svc/old.go", Line: 9}},
		}},
	}
	var b bytes.Buffer
	if err := format.WriteBaseline(&b, "sarif", base, format.Tool{}, fs, bl); err != nil {
		t.Fatal(err)
	}
	var log format.SARIFLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range log.Runs[0].Results {
		got = append(got, r.RuleID+" "+r.BaselineState+" "+r.Kind+" "+r.PartialFingerprints[format.FingerprintKey])
	}
	want := "OBX001 unchanged  f00d|OBX900 new  f00d:2|OBX002 absent pass dead|OBX002 absent pass dead:2"
	if strings.Join(got, "|") != want {
		t.Errorf("results:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if r := log.Runs[0].Results[3]; r.Level != "none" || r.Locations[0].PhysicalLocation.Region.StartLine != 9 {
		t.Errorf("absent result %+v: want level none at line 9", r)
	}

	// text and codeclimate: the new findings only
	b.Reset()
	if err := format.WriteBaseline(&b, "text", base, format.Tool{}, fs, bl); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "\n") != 1 || !strings.Contains(b.String(), "OBX900") {
		t.Errorf("text with a baseline:\n%s", b.String())
	}
}

// TestCodeClimate checks the fields GitLab code quality requires
// (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format):
// description, check_name, fingerprint, severity (info, minor, major,
// critical, blocker), location.path and location.lines.begin.
func TestCodeClimate(t *testing.T) {
	base, fs := sample(t)
	fs[0].Fingerprint = "f00d"
	var b bytes.Buffer
	if err := format.Write(&b, "codeclimate", base, format.Tool{}, fs); err != nil {
		t.Fatal(err)
	}
	var issues []map[string]any
	if err := json.Unmarshal(b.Bytes(), &issues); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(issues) != 2 {
		t.Fatalf("issues = %d, want 2", len(issues))
	}
	fps := map[string]bool{}
	for i, is := range issues {
		for _, k := range []string{"description", "check_name", "fingerprint", "severity"} {
			if s, _ := is[k].(string); s == "" {
				t.Errorf("issue %d: %s missing", i, k)
			}
		}
		if !strings.Contains("info minor major critical blocker", is["severity"].(string)) {
			t.Errorf("issue %d: severity %v", i, is["severity"])
		}
		loc := is["location"].(map[string]any)
		if loc["path"] != "svc/svc.go" {
			t.Errorf("issue %d: path %v", i, loc["path"])
		}
		if begin, _ := loc["lines"].(map[string]any)["begin"].(float64); begin < 1 {
			t.Errorf("issue %d: lines.begin %v", i, loc["lines"])
		}
		fps[is["fingerprint"].(string)] = true
	}
	if !fps["f00d"] || len(fps) != 2 {
		t.Errorf("fingerprints %v: want f00d and a computed one", fps)
	}
	b.Reset()
	if err := format.CodeClimate(&b, base, nil); err != nil || strings.TrimSpace(b.String()) != "[]" {
		t.Errorf("no findings: %q %v, want []", b.String(), err)
	}
}
