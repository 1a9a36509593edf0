package format_test

import (
	"bytes"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan/format"
)

// annotation is one workflow command read back by the grammar GitHub
// documents: "::" command, a space and comma-separated key=value
// properties, "::", the message. Properties escape % CR LF : and , as
// %25 %0D %0A %3A %2C; the message escapes % CR LF.
type annotation struct {
	command string
	props   map[string]string
	message string
}

var commandLine = regexp.MustCompile(`^::(error|warning|notice)(?: ([^:]*))?::(.*)$`)

func parseAnnotations(t *testing.T, out string) []annotation {
	t.Helper()
	unprop := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
	undata := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%")
	var as []annotation
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := commandLine.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a workflow command: %q", line)
		}
		a := annotation{command: m[1], props: map[string]string{}, message: undata.Replace(m[3])}
		if strings.ContainsAny(m[3], "\r\n") {
			t.Errorf("raw line break in message: %q", line)
		}
		for _, kv := range strings.Split(m[2], ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				t.Fatalf("property %q without '=' in %q", kv, line)
			}
			a.props[k] = unprop.Replace(v)
		}
		as = append(as, a)
	}
	return as
}

func TestGitHubActions(t *testing.T) {
	base, fs := sample(t)
	var b bytes.Buffer
	if err := format.Write(&b, "github-actions", base, format.Tool{}, fs); err != nil {
		t.Fatal(err)
	}
	as := parseAnnotations(t, b.String())
	if len(as) != 2 {
		t.Fatalf("%d annotations, want 2:\n%s", len(as), b.String())
	}
	a := as[0]
	if a.command != "error" || a.props["file"] != "svc/svc.go" || a.props["line"] != "5" || a.props["col"] != "11" {
		t.Errorf("first annotation = %+v", a)
	}
	if a.props["title"] != "outboxify OBX001" {
		t.Errorf("title = %q", a.props["title"])
	}
	first, rest, _ := strings.Cut(a.message, "\n")
	if first != fs[0].Short() {
		t.Errorf("message first line = %q, want the finding's short message", first)
	}
	for _, want := range []string{"(*bus.Kafka).Emit", "(*repo.Repo).Save", "svc/svc.go:4"} {
		if !strings.Contains(rest, want) {
			t.Errorf("message details lack %q:\n%s", want, a.message)
		}
	}
	if as[1].props["line"] != "3" || as[1].props["title"] != "outboxify OBX900" {
		t.Errorf("second annotation = %+v", as[1])
	}
}

// TestGitHubActionsEscaping puts every character GitHub's documented rules
// escape into a path and a message, and reads them back unchanged.
func TestGitHubActionsEscaping(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "a,b:c%d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "x.go")
	msg := "100% lost, at: x\r\nsecond line %0A"
	fs := []dualwrite.Finding{{
		Rule: dualwrite.RuleAfterWrite, Message: msg,
		Publish: dualwrite.Call{Position: token.Position{Filename: file, Line: 7, Column: 2}},
	}}
	var b bytes.Buffer
	if err := format.Write(&b, "github-actions", base, format.Tool{}, fs); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "\n") != 1 {
		t.Fatalf("one finding, one line; got:\n%q", b.String())
	}
	as := parseAnnotations(t, b.String())
	if got := as[0].props["file"]; got != "a,b:c%d/x.go" {
		t.Errorf("file = %q, want a,b:c%%d/x.go (raw: %q)", got, b.String())
	}
	if got := as[0].message; got != msg {
		t.Errorf("message = %q, want %q (raw: %q)", got, msg, b.String())
	}
	// colons and commas stay literal in the message: only properties escape them
	if !strings.Contains(b.String(), "::100%25 lost, at: x%0D%0Asecond line %250A\n") {
		t.Errorf("message not escaped as documented: %q", b.String())
	}
}

func TestGitHubActionsBaselineOnlyNew(t *testing.T) {
	base, fs := sample(t)
	var b bytes.Buffer
	bl := &format.Baseline{States: []string{"unchanged", "new"}}
	if err := format.WriteBaseline(&b, "github-actions", base, format.Tool{}, fs, bl); err != nil {
		t.Fatal(err)
	}
	as := parseAnnotations(t, b.String())
	if len(as) != 1 || as[0].props["title"] != "outboxify OBX900" {
		t.Errorf("with a baseline only the new finding is annotated: %q", b.String())
	}
}
