package relaytest

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/internal/testmod"
)

// TestRenderedRelayBuildsAndVets renders every database × broker relay into
// one module and runs one go vet over it (vet type-checks everything, so it
// also proves the code compiles). Set OUTBOXIFY_RELAY_KEEP=dir to keep the
// module for inspection.
func TestRenderedRelayBuildsAndVets(t *testing.T) {
	files, err := RenderCases(AllCases())
	if err != nil {
		t.Fatal(err)
	}
	dir := keepOrTemp(t, files)
	out := testmod.Go(t, dir, "vet", "./...")
	if strings.TrimSpace(out) != "" {
		t.Logf("go vet output:\n%s", out)
	}
}

func keepOrTemp(t *testing.T, files map[string][]byte) string {
	t.Helper()
	if keep := os.Getenv("OUTBOXIFY_RELAY_KEEP"); keep != "" {
		if err := os.RemoveAll(keep); err != nil {
			t.Fatal(err)
		}
		if err := testmod.Write(keep, ModulePath, files); err != nil {
			t.Fatal(err)
		}
		return keep
	}
	return testmod.New(t, ModulePath, files)
}

// goIn runs the go command in dir with env (GOFLAGS=-mod=mod, GOWORK=off as
// testmod does) and returns its combined output.
func goIn(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(env, "GOFLAGS=-mod=mod", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// summarize keeps the result lines of verbose go test output.
func summarize(out string) string {
	var b strings.Builder
	for _, line := range strings.Split(out, "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "--- ") || strings.HasPrefix(trim, "ok ") || strings.HasPrefix(trim, "FAIL") ||
			strings.HasPrefix(trim, "PASS") || strings.Contains(trim, "counts:") {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
	return b.String()
}
