package format_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/scan/format"
)

// TestSARIFShape checks the fields GitHub code scanning requires or uses,
// on the generic JSON (so a struct tag typo cannot hide), then round-trips
// through the typed structs.
func TestSARIFShape(t *testing.T) {
	base, fs := sample(t)
	var b bytes.Buffer
	tool := format.Tool{Name: "outboxify", Version: "v1.2.3"}
	if err := format.Write(&b, "sarif", base, tool, fs); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	str := func(v any, path ...string) string {
		t.Helper()
		for _, p := range path {
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%s: not an object in %v", p, path)
			}
			v = m[p]
		}
		s, ok := v.(string)
		if !ok || s == "" {
			t.Errorf("%v: want a non-empty string, got %#v", path, v)
		}
		return s
	}
	num := func(v any, path ...string) int {
		t.Helper()
		for _, p := range path {
			v = v.(map[string]any)[p]
		}
		n, ok := v.(float64)
		if !ok || n < 0 || n != float64(int(n)) {
			t.Errorf("%v: want a non-negative integer, got %#v", path, v)
		}
		return int(n)
	}
	if str(doc, "version") != "2.1.0" {
		t.Errorf("version = %v", doc["version"])
	}
	if !strings.Contains(str(doc, "$schema"), "sarif-2.1.0") {
		t.Errorf("$schema = %v", doc["$schema"])
	}
	runs := doc["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("runs = %d, want 1", len(runs))
	}
	run := runs[0].(map[string]any)
	if ck := str(run, "columnKind"); ck != "utf16CodeUnits" && ck != "unicodeCodePoints" {
		t.Errorf("columnKind = %q", ck)
	}
	if str(run, "tool", "driver", "name") != "outboxify" || str(run, "tool", "driver", "version") != "v1.2.3" {
		t.Errorf("driver = %v", run["tool"])
	}
	str(run, "tool", "driver", "informationUri")
	rules := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
	var ids []string
	for _, r := range rules {
		id := str(r, "id")
		ids = append(ids, id)
		str(r, "name")
		str(r, "shortDescription", "text")
		str(r, "fullDescription", "text")
		str(r, "help", "text")
		str(r, "help", "markdown")
		if lvl := str(r, "defaultConfiguration", "level"); !slices.Contains([]string{"none", "note", "warning", "error"}, lvl) {
			t.Errorf("rule %s level %q", id, lvl)
		}
	}
	for _, want := range []string{"OBX001", "OBX002", "OBX003", "OBX004", "OBX005", "OBX006", "OBX101", "OBX102", "OBX900"} {
		if !slices.Contains(ids, want) {
			t.Errorf("rule %s missing from driver.rules %v", want, ids)
		}
	}
	results := run["results"].([]any)
	if len(results) != len(fs) {
		t.Fatalf("results = %d, want %d", len(results), len(fs))
	}
	for i, r := range results {
		id := str(r, "ruleId")
		if idx := num(r, "ruleIndex"); idx >= len(ids) || ids[idx] != id {
			t.Errorf("result %d: ruleIndex %d does not point at %s", i, idx, id)
		}
		str(r, "message", "text")
		locs := r.(map[string]any)["locations"].([]any)
		if len(locs) != 1 {
			t.Fatalf("result %d: %d locations, want 1", i, len(locs))
		}
		uri := str(locs[0], "physicalLocation", "artifactLocation", "uri")
		if filepath.IsAbs(uri) || strings.HasPrefix(uri, "..") || strings.Contains(uri, `\`) {
			t.Errorf("result %d: uri %q is not repo-relative with slashes", i, uri)
		}
		str(locs[0], "physicalLocation", "artifactLocation", "uriBaseId")
		if num(locs[0], "physicalLocation", "region", "startLine") < 1 {
			t.Errorf("result %d: no startLine", i)
		}
		if str(r, "partialFingerprints", "primaryLocationLineHash") == "" {
			t.Errorf("result %d: no fingerprint", i)
		}
	}
	first := results[0].(map[string]any)
	// Byte column 11 follows a tab and "/* é */ ": 10 in UTF-16 code units.
	if c := num(first["locations"].([]any)[0], "physicalLocation", "region", "startColumn"); c != 10 {
		t.Errorf("startColumn = %d, want 10 (UTF-16)", c)
	}
	rel := first["relatedLocations"].([]any)
	if len(rel) != 1 || num(rel[0], "physicalLocation", "region", "startLine") != 4 ||
		str(rel[0], "physicalLocation", "artifactLocation", "uri") != "svc/svc.go" {
		t.Errorf("relatedLocations = %v, want the DB write at svc/svc.go:4", rel)
	}
	if _, ok := results[1].(map[string]any)["relatedLocations"]; ok {
		t.Errorf("finding without a write has relatedLocations")
	}

	// Round trip: the typed structs lose nothing.
	var typed format.SARIFLog
	if err := json.Unmarshal(b.Bytes(), &typed); err != nil {
		t.Fatal(err)
	}
	again, err := json.MarshalIndent(typed, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(again)) != strings.TrimSpace(b.String()) {
		t.Errorf("round trip changed the document:\n%s\nvs\n%s", again, b.String())
	}
}

// TestSARIFFingerprintStable: moving the code down (a line added above)
// keeps the fingerprint; changing the flagged line changes it.
func TestSARIFFingerprintStable(t *testing.T) {
	base, fs := sample(t)
	var b1 bytes.Buffer
	if err := format.SARIF(&b1, base, format.Tool{}, fs); err != nil {
		t.Fatal(err)
	}
	before := fingerprintsOf(t, &b1)

	file := fs[0].Publish.Position.Filename
	src, _ := os.ReadFile(file)
	if err := os.WriteFile(file, append([]byte("// a new comment line\n"), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range fs {
		fs[i].Publish.Position.Line++
		if fs[i].Write != nil {
			fs[i].Write.Position.Line++
		}
	}
	var b2 bytes.Buffer
	if err := format.SARIF(&b2, base, format.Tool{}, fs); err != nil {
		t.Fatal(err)
	}
	if after := fingerprintsOf(t, &b2); !slices.Equal(before, after) {
		t.Errorf("fingerprints moved with the line numbers: %v -> %v", before, after)
	}

	src, _ = os.ReadFile(file)
	if err := os.WriteFile(file, bytes.Replace(src, []byte("bus.Emit()"), []byte("bus.Announce()"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	var b3 bytes.Buffer
	if err := format.SARIF(&b3, base, format.Tool{}, fs); err != nil {
		t.Fatal(err)
	}
	if changed := fingerprintsOf(t, &b3); changed[0] == before[0] {
		t.Errorf("fingerprint ignores the flagged line's text: %v", changed)
	}
}

func fingerprintsOf(t *testing.T, b *bytes.Buffer) []string {
	t.Helper()
	var log format.SARIFLog
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range log.Runs[0].Results {
		out = append(out, r.PartialFingerprints["primaryLocationLineHash"])
	}
	return out
}
