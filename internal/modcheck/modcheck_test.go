package modcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewErrorsIgnoreThoseBefore(t *testing.T) {
	before := &Result{Errors: errorKeys("# example.com/m/mocks\nmocks/mocks.go:3:2: undefined: mock\n")}
	after := &Result{Errors: errorKeys("# example.com/m/mocks\nmocks/mocks.go:3:2: undefined: mock\n# example.com/m/svc\nsvc/svc.go:9:1: Insert redeclared\n")}
	got := New(before, after)
	if len(got) != 1 || got[0] != "# example.com/m/svc" {
		t.Fatalf("New = %q, want the svc package only", got)
	}
	// a setup error moves lines when a file is rewritten: compared without them
	before = &Result{Errors: errorKeys("svc/svc.go:5:2: no required module provides package x.io/y\n")}
	after = &Result{Errors: errorKeys("svc/svc.go:7:2: no required module provides package x.io/y\n")}
	if got := New(before, after); len(got) != 0 {
		t.Fatalf("New = %q, want none", got)
	}
}

// TestLinkErrorsBeforeCountOnce: a binary that already failed to link (a
// cgo library whose C source the tree lacks) prints the linker's command
// line and temporary paths, which differ from one build to the next; the
// same failure after the change is not a new error.
func TestLinkErrorsBeforeCountOnce(t *testing.T) {
	link := func(tmp, id string) string {
		return "# example.com/m/cmd/server\n" +
			"/usr/local/go/pkg/tool/linux_amd64/link: running gcc failed: exit status 1\n" +
			"/usr/bin/gcc -m64 -Wl,--build-id=0x" + id + " -o $WORK/b302/exe/a.out /tmp/go-link-" + tmp + "/go.o /tmp/go-link-" + tmp + "/000000.o\n" +
			"/usr/bin/ld: /tmp/go-link-" + tmp + "/000025.o: in function `_cgo_2e751dd764d1_Cfunc_sqlite3_backup_finish':\n" +
			"/tmp/go-build/sqlite3_opt_serialize.cgo2.c:101: undefined reference to `sqlite3_serialize'\n" +
			"collect2: error: ld returned 1 exit status\n"
	}
	before := &Result{Errors: errorKeys(link("2480899130", "35f775d5"))}
	after := &Result{Errors: errorKeys(link("1193620", "9a0c11e2"))}
	if got := New(before, after); len(got) != 0 {
		t.Fatalf("New = %q, want none: the same link failure", got)
	}
	after = &Result{Errors: errorKeys(link("1193620", "9a0c11e2") + "# example.com/m/svc\nsvc/svc.go:9:1: Insert redeclared\n")}
	if got := New(before, after); len(got) != 1 || got[0] != "# example.com/m/svc" {
		t.Fatalf("New = %q, want the svc package only", got)
	}
}

// TestBuildOverlay builds a module as if a file were changed and one
// removed, and checks nothing on disk moved.
func TestBuildOverlay(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	dir := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.21\n")
	write("a/a.go", "package a\n\nfunc A() int { return 1 }\n")
	write("a/b.go", "package a\n\nfunc B() int { return A() }\n")
	env := []string{"GOWORK=off", "GOFLAGS=-mod=readonly"}
	before, err := Build(dir, nil, nil, env)
	if err != nil || !before.OK {
		t.Fatalf("before: %v %+v", err, before)
	}
	broken := Changes{filepath.Join(dir, "a", "a.go"): nil} // B calls A
	after, err := Build(dir, broken, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	if after.OK || len(New(before, after)) != 1 {
		t.Fatalf("removing a.go should break the package: %+v", after)
	}
	fixed := Changes{filepath.Join(dir, "a", "a.go"): []byte("package a\n\nfunc A() int { return 2 }\n\nfunc C() string { return 1 }\n")}
	after, err = Build(dir, fixed, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(after.Output, "./a/a.go:5:") || strings.Contains(after.Output, "outboxify-overlay") {
		t.Errorf("errors should name the real file, got:\n%s", after.Output)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a", "a.go")); !strings.Contains(string(b), "return 1") {
		t.Errorf("a.go changed on disk: %s", b)
	}
}
