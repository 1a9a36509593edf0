package format_test

import (
	"bytes"
	"encoding/json"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan/format"
)

// sample builds findings on real files under base so SARIF can read lines.
func sample(t *testing.T) (string, []dualwrite.Finding) {
	t.Helper()
	base := t.TempDir()
	src := "package svc\n\nfunc Place() {\n\trepo.Save()\n\t/* é */ bus.Emit()\n}\n"
	if err := os.MkdirAll(filepath.Join(base, "svc"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(base, "svc", "svc.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return base, []dualwrite.Finding{
		{
			Rule: dualwrite.RuleAfterWrite, Message: "event lost if the process dies after the write",
			Summary: "event lost after the write", Advice: "use an outbox",
			Func: "example.com/shop/svc.Place",
			Publish: dualwrite.Call{
				Position: token.Position{Filename: file, Line: 5, Column: 11},
				Name:     "(*github.com/segmentio/kafka-go.Writer).WriteMessages",
				Via:      []string{"(*example.com/shop/bus.Kafka).Emit"}, ViaInterface: true,
			},
			Write: &dualwrite.Call{
				Position: token.Position{Filename: file, Line: 4, Column: 2},
				Name:     "(*database/sql.DB).ExecContext",
				Via:      []string{"(*example.com/shop/repo.Repo).Save"},
			},
			Store: "sql",
		},
		{
			Rule: dualwrite.RuleUnusedSuppress, Message: "suppression matches nothing",
			Publish: dualwrite.Call{Position: token.Position{Filename: file, Line: 3, Column: 1}},
		},
	}
}

func TestText(t *testing.T) {
	base, fs := sample(t)
	var b bytes.Buffer
	if err := format.Write(&b, "text", base, format.Tool{}, fs); err != nil {
		t.Fatal(err)
	}
	want := "svc/svc.go:5:11: OBX001 event lost after the write\n" +
		"svc/svc.go:3:1: OBX900 suppression matches nothing\n"
	if b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}

	// -v: the chains, the write's place and the advice under the line
	b.Reset()
	if err := format.WriteWith(&b, "text", base, format.Tool{}, fs, nil, format.Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	want = "svc/svc.go:5:11: OBX001 event lost after the write\n" +
		"\tpublish (*kafka.Writer).WriteMessages reached via (*bus.Kafka).Emit (through an interface)\n" +
		"\tDB write (*sql.DB).ExecContext at svc/svc.go:4 reached via (*repo.Repo).Save\n" +
		"\tfix: use an outbox\n" +
		"svc/svc.go:3:1: OBX900 suppression matches nothing\n"
	if b.String() != want {
		t.Errorf("text -v:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestJSON(t *testing.T) {
	base, fs := sample(t)
	var b bytes.Buffer
	if err := format.Write(&b, "json", base, format.Tool{}, fs); err != nil {
		t.Fatal(err)
	}
	// Decode into plain maps: the contract is the JSON, not our structs.
	var doc struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(doc.Findings) != 2 {
		t.Fatalf("findings = %d", len(doc.Findings))
	}
	f := doc.Findings[0]
	for k, v := range map[string]any{
		"rule": "OBX001", "file": "svc/svc.go", "line": 5.0, "column": 11.0, "via_interface": true,
		"message": "event lost if the process dies after the write",
	} {
		if !reflect.DeepEqual(f[k], v) {
			t.Errorf("%s = %#v, want %#v", k, f[k], v)
		}
	}
	pub := f["publish"].(map[string]any)
	if pub["file"] != "svc/svc.go" || pub["line"] != 5.0 || pub["call"] != "(*github.com/segmentio/kafka-go.Writer).WriteMessages" {
		t.Errorf("publish = %v", pub)
	}
	wr := f["write"].(map[string]any)
	if wr["file"] != "svc/svc.go" || wr["line"] != 4.0 || wr["call"] != "(*database/sql.DB).ExecContext" {
		t.Errorf("write = %v", wr)
	}
	if !reflect.DeepEqual(f["via"], []any{"(*example.com/shop/bus.Kafka).Emit"}) {
		t.Errorf("via = %v", f["via"])
	}
	if _, ok := doc.Findings[1]["write"]; ok {
		t.Errorf("finding without write has a write: %v", doc.Findings[1])
	}

	// No findings: an empty list, not null.
	b.Reset()
	if err := format.JSON(&b, base, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Join(strings.Fields(b.String()), "") != `{"findings":[]}` {
		t.Errorf("empty json = %s", b.String())
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := format.Write(&bytes.Buffer{}, "xml", "", format.Tool{}, nil); err == nil {
		t.Error("unknown format accepted")
	}
}
