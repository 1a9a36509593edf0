package baseline_test

import (
	"go/token"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan/baseline"
)

func finding(fp string, line int) dualwrite.Finding {
	return dualwrite.Finding{
		Rule: dualwrite.RuleAfterWrite, Message: "publish after write; advice", Func: "svc.F", Fingerprint: fp,
		Publish: dualwrite.Call{Name: "nats.Publish", Position: token.Position{Filename: "/m/svc/svc.go", Line: line}},
		Write:   &dualwrite.Call{Name: "sql.Exec", Position: token.Position{Filename: "/m/svc/svc.go", Line: line - 1}},
	}
}

func TestBuildCountsIdentical(t *testing.T) {
	b := baseline.Build("/m", "v1", []dualwrite.Finding{finding("bb", 30), finding("aa", 10), finding("bb", 20)})
	if len(b.Findings) != 2 {
		t.Fatalf("entries = %d, want 2", len(b.Findings))
	}
	e := b.Findings[1]
	if e.Fingerprint != "bb" || e.Count != 2 || len(e.Locations) != 2 || e.Locations[0].File != "svc/svc.go" {
		t.Errorf("entry = %+v, want bb counted twice at svc/svc.go", e)
	}
	if e.Message != "publish after write" || e.Write != "sql.Exec" {
		t.Errorf("entry message/write = %q/%q", e.Message, e.Write)
	}
	path := filepath.Join(t.TempDir(), "dir", "baseline.json")
	if err := b.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := baseline.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, b) {
		t.Errorf("read back %+v, want %+v", back, b)
	}
}

func TestCompare(t *testing.T) {
	b := baseline.Build("/m", "v1", []dualwrite.Finding{finding("aa", 10), finding("bb", 20), finding("bb", 30)})

	// moved lines, one more identical bb, aa gone
	c := b.Compare("/m", []dualwrite.Finding{finding("bb", 25), finding("bb", 30), finding("bb", 35), finding("cc", 40)})
	if want := []string{"unchanged", "unchanged", "new", "new"}; !reflect.DeepEqual(c.States, want) {
		t.Errorf("states = %v, want %v", c.States, want)
	}
	if c.New != 2 || c.Unchanged != 2 || c.Absent != 1 {
		t.Errorf("counts new %d unchanged %d absent %d", c.New, c.Unchanged, c.Absent)
	}
	if len(c.Gone) != 1 || c.Gone[0].Fingerprint != "aa" || !reflect.DeepEqual(c.Gone[0].Places(), []baseline.Location{{File: "svc/svc.go", Line: 10}}) {
		t.Errorf("gone = %+v, want aa last seen at svc/svc.go:10", c.Gone)
	}

	// one bb of two fixed: the recorded location not matched is the one listed
	c = b.Compare("/m", []dualwrite.Finding{finding("aa", 10), finding("bb", 30)})
	if c.New != 0 || c.Absent != 1 || len(c.Gone) != 1 {
		t.Fatalf("comparison %+v", c)
	}
	if got := c.Gone[0].Places(); !reflect.DeepEqual(got, []baseline.Location{{File: "svc/svc.go", Line: 20}}) {
		t.Errorf("gone at %v, want svc/svc.go:20 (the one at 30 still matches)", got)
	}
}

func TestReadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, b := range map[string]*baseline.File{
		"version": {Version: 99, Fingerprint: "v1"},
		"count":   {Version: 1, Fingerprint: "v1", Findings: []baseline.Entry{{Fingerprint: "aa"}}},
	} {
		path := filepath.Join(dir, name+".json")
		if err := b.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		if _, err := baseline.Read(path); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
