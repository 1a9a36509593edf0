package scan_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/scan"
)

// exampleDir is the shipped example module (its own go.mod and go.sum).
var exampleDir = filepath.Join("..", "testdata", "example")

// marker is the comment that says which rule the scan must report on a line.
var marker = regexp.MustCompile(`//\s*scan:\s*(OBX\d{3})`)

// expectedFindings reads the `// scan: OBXnnn` markers of the example's Go
// files as "path:line RULE" (paths slash-separated, module-relative).
func expectedFindings(t *testing.T, dir string) []string {
	t.Helper()
	var want []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		rel, _ := filepath.Rel(dir, path)
		sc := bufio.NewScanner(f)
		for n := 1; sc.Scan(); n++ {
			for _, m := range marker.FindAllStringSubmatch(sc.Text(), -1) {
				want = append(want, fmt.Sprintf("%s:%d %s", filepath.ToSlash(rel), n, m[1]))
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	return want
}

// TestExampleFindings: the example module gives exactly the findings its
// comments announce, no more, no fewer.
func TestExampleFindings(t *testing.T) {
	want := expectedFindings(t, exampleDir)
	if len(want) < 5 {
		t.Fatalf("only %d markers in the example: the marker regexp or the example is broken", len(want))
	}
	prog, err := scan.Load(exampleDir, []string{"./..."}, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range prog.Findings {
		got = append(got, fmt.Sprintf("%s:%d %s", prog.Rel(f.Publish.Position.Filename), f.Publish.Position.Line, f.Rule))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("example findings differ from its // scan: comments\nmissing: %q\nunexpected: %q\nall findings:\n%s",
			minus(want, got), minus(got, want), describe(prog))
	}
	for _, f := range prog.Findings {
		if f.Write == nil || f.Write.Position.Line == 0 || f.Write.Name == "" || f.Publish.Name == "" {
			t.Errorf("%s:%d %s: finding without a located, named write and publish: %+v",
				prog.Rel(f.Publish.Position.Filename), f.Publish.Position.Line, f.Rule, f)
		}
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

func describe(prog *scan.Program) string {
	var b strings.Builder
	for _, f := range prog.Findings {
		fmt.Fprintf(&b, "\t%s:%d %s %s publish=%s via=%v iface=%v\n", prog.Rel(f.Publish.Position.Filename),
			f.Publish.Position.Line, f.Rule, f.Message, f.Publish.Name, f.Publish.Via, f.Publish.ViaInterface)
	}
	return b.String()
}
