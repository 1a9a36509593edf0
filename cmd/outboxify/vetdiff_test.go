package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/scan/format"
)

// TestVetDifference: on the example module, `go vet -vettool=outboxify-vet`
// reports exactly the CLI's findings minus those that needed an interface
// call resolved against the implementations in other packages (which the
// CLI marks via_interface): go vet sees one package at a time.
func TestVetDifference(t *testing.T) {
	if testing.Short() {
		t.Skip("builds outboxify-vet and runs go vet on the example module")
	}
	example, err := filepath.Abs(filepath.Join("..", "..", "testdata", "example"))
	if err != nil {
		t.Fatal(err)
	}
	// OUTBOXIFY_VETTOOL names a prebuilt vet tool; by default it is built.
	vettool := os.Getenv("OUTBOXIFY_VETTOOL")
	if vettool == "" {
		vettool = filepath.Join(t.TempDir(), "outboxify-vet")
		if out, err := exec.Command("go", "build", "-o", vettool, "github.com/outboxify/outboxify/cmd/outboxify-vet").CombinedOutput(); err != nil {
			t.Fatalf("building outboxify-vet: %v\n%s", err, out)
		}
	}

	// The CLI, as a user runs it.
	var stdout, stderr bytes.Buffer
	code := run([]string{"scan", "-C", example, "--format", "json", "./..."}, &stdout, &stderr)
	if code != exitFindings {
		t.Fatalf("outboxify scan exited %d, want 1 (findings)\n%s", code, stderr.String())
	}
	var rep format.Report
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var cli, wantVet, ifaceOnly []string
	for _, f := range rep.Findings {
		k := key(f.File, f.Line, f.Column, f.Rule)
		cli = append(cli, k)
		if f.ViaInterface {
			ifaceOnly = append(ifaceOnly, k)
		} else {
			wantVet = append(wantVet, k)
		}
	}
	// Both halves must be there, or the test could not fail.
	if len(ifaceOnly) == 0 || len(wantVet) == 0 {
		t.Fatalf("the example must have findings with and without interface resolution; CLI: %q", cli)
	}

	// go vet with the unitchecker build of the same analyzer.
	cmd := exec.Command("go", "vet", "-vettool="+vettool, "-json", "./...")
	cmd.Dir = example
	var vetOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &vetOut, &vetOut
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatal(err)
		}
	}
	got, err := vetFindings(vetOut.Bytes(), example)
	if err != nil {
		t.Fatalf("%v\n%s", err, vetOut.String())
	}
	slices.Sort(got)
	slices.Sort(wantVet)
	if !slices.Equal(got, wantVet) {
		t.Errorf("go vet findings != CLI findings minus interface-resolved ones\n vet: %q\nwant: %q\n(interface-resolved, CLI only: %q)", got, wantVet, ifaceOnly)
	}
}

func key(file string, line, col int, rule string) string {
	return file + ":" + itoa(line) + ":" + itoa(col) + " " + rule
}

func itoa(n int) string { return strconv.Itoa(n) }

// vetFindings reads `go vet -json` output: "# pkg" comment lines and one
// JSON object per package, {"pkg": {"analyzer": [{"posn","message","category"}]}}.
func vetFindings(out []byte, dir string) ([]string, error) {
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	dec := json.NewDecoder(strings.NewReader(strings.Join(lines, "\n")))
	var keys []string
	for {
		var doc map[string]map[string]json.RawMessage
		if err := dec.Decode(&doc); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		for pkg, byAnalyzer := range doc {
			for name, raw := range byAnalyzer {
				var diags []struct {
					Posn     string `json:"posn"`
					Message  string `json:"message"`
					Category string `json:"category"`
				}
				if err := json.Unmarshal(raw, &diags); err != nil {
					return nil, errors.New(pkg + ": " + name + ": " + string(raw))
				}
				for _, d := range diags {
					file, line, col := splitPosn(d.Posn)
					rel, _ := filepath.Rel(dir, file)
					keys = append(keys, filepath.ToSlash(rel)+":"+line+":"+col+" "+d.Category)
				}
			}
		}
	}
	return keys, nil
}

func splitPosn(posn string) (file, line, col string) {
	i := strings.LastIndexByte(posn, ':')
	j := strings.LastIndexByte(posn[:max(i, 0)], ':')
	if i < 0 || j < 0 {
		return posn, "0", "0"
	}
	return posn[:j], posn[j+1 : i], posn[i+1:]
}
