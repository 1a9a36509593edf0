package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal pair: what run writes to the returned
// terminal is read from the controller.
func openPTY(t *testing.T) (controller, terminal *os.File) {
	t.Helper()
	c, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(c.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(c.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("ptsname: %v", err)
	}
	term, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open terminal: %v", err)
	}
	t.Cleanup(func() { c.Close(); term.Close() })
	return c, term
}

// runOnTerminal runs the CLI with stderr on a pseudo-terminal and returns
// what appeared there.
func runOnTerminal(t *testing.T, args ...string) (code int, stderr string) {
	t.Helper()
	c, term := openPTY(t)
	got := make(chan string)
	go func() {
		b, _ := io.ReadAll(c) // ends with EIO once the terminal is closed
		got <- string(b)
	}()
	code = run(args, &bytes.Buffer{}, term)
	term.Close()
	return code, strings.ReplaceAll(<-got, "\r\n", "\n")
}

func progressModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":     "module example.com/p\n\ngo 1.26\n",
		"svc/svc.go": "package svc\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n)\n\nfunc Save(ctx context.Context, db *sql.DB) error {\n\t_, err := db.ExecContext(ctx, `DELETE FROM t`)\n\treturn err\n}\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// On a terminal scan tells its stages and ends with a summary and the time;
// --quiet silences it. (Not on a terminal it prints nothing: the
// testscripts' `! stderr .`.)
func TestProgressOnTerminal(t *testing.T) {
	dir := progressModule(t)
	code, out := runOnTerminal(t, "scan", "-C", dir, "./...")
	if code != exitOK {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{
		"outboxify: loading and type-checking ./... ...\n",
		"outboxify: loaded 1 packages (",
		"outboxify: analysed 1 packages in ",
		"outboxify: scan: 0 finding(s) in 1 package(s) in ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal lacks %q:\n%s", want, out)
		}
	}
	code, out = runOnTerminal(t, "scan", "--quiet", "-C", dir, "./...")
	if code != exitOK || out != "" {
		t.Errorf("--quiet: exit %d, terminal:\n%s", code, out)
	}
	code, out = runOnTerminal(t, "fix", "--diff", "-C", dir, "./...")
	if code != exitOK || !strings.Contains(out, "outboxify: fix --diff: 0 publish(es) would be replaced in 0 file(s), 0 finding(s) left for a person in ") {
		t.Errorf("fix --diff: exit %d, terminal:\n%s", code, out)
	}
}
