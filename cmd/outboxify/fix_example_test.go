package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/generate"
	"github.com/outboxify/outboxify/internal/pkgload"
	"github.com/outboxify/outboxify/internal/testmod"
)

// TestFixExampleModule runs `outboxify fix` alone on a copy of the shipped
// example module, then: go build and go vet pass, the migration and the
// relay main exist and the relay builds, scan reports exactly the findings
// fix left for a person (plus none in code outboxify generated), and a
// second fix run changes nothing.
func TestFixExampleModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a whole module")
	}
	dir := t.TempDir()
	fixCopyTree(t, filepath.Join(testmod.Root(), "testdata", "example"), dir)
	modcache := fixGoEnv(t, "GOMODCACHE")
	// go get of the generated code's requirements reads the module cache
	// as a proxy first; what it lacks (a fresh machine's cache) comes from
	// the machine's own proxy setting.
	t.Setenv("GOPROXY", cacheProxy(modcache, fixGoEnv(t, "GOPROXY")))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOTOOLCHAIN", "local")

	var out, errOut bytes.Buffer
	// The service's go.mod and go.sum do not change: the writer uses the
	// standard library and the driver the module requires; the relay is
	// its own module.
	goMod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	goSum, _ := os.ReadFile(filepath.Join(dir, "go.sum"))
	pkgload.Reset()
	code := run([]string{"fix", "-C", dir, "--format", "json", "./..."}, &out, &errOut)
	if code != exitOK && code != exitFindings {
		t.Fatalf("fix exited %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	// fix loads the program once, to scan it (the import graph, then the
	// packages with types); the rewritten files and the generated writer
	// are type-checked in memory against it (scan.Recheck), and that
	// program, analysed, is the closing report's. The go build -overlay of
	// the whole change is a separate check.
	if loads, typed := pkgload.Counts(); loads != 2 || typed != 1 {
		t.Errorf("fix loaded packages %d times, %d of them type-checked; want 2 and 1 (scan: graph + types; the change is checked in memory)", loads, typed)
	}
	fixJSON := append([]byte(nil), out.Bytes()...)
	if now, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !bytes.Equal(now, goMod) {
		t.Errorf("fix changed go.mod:\n%s\nwas:\n%s", now, goMod)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "go.sum")); !bytes.Equal(now, goSum) {
		t.Errorf("fix changed go.sum")
	}
	var rec struct {
		fixRecord
		Generated []string `json:"generated"`
	}
	if err := json.Unmarshal(out.Bytes(), &rec); err != nil {
		t.Fatalf("fix --format json: %v\n%s", err, out.String())
	}
	t.Logf("fix: %d replaced, %d manual, %d files generated", len(rec.Replaced), len(rec.Manual), len(rec.Generated))
	if len(rec.Replaced) == 0 {
		t.Fatalf("fix replaced nothing:\n%s", out.String())
	}
	if (code == exitFindings) != (len(rec.Manual) > 0) {
		t.Errorf("exit %d with %d manual findings", code, len(rec.Manual))
	}

	fixGoCmd(t, dir, "build", "./...")
	fixGoCmd(t, dir, "vet", "./...")
	ups, _ := filepath.Glob(filepath.Join(dir, "migrations", "*.up.sql"))
	if len(ups) == 0 {
		t.Errorf("no up migration in %s/migrations", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "outbox-relay", "main.go")); err != nil {
		t.Errorf("relay main: %v", err)
	}
	// The relay is its own module, built offline from its pinned go.mod and go.sum.
	relay := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "relay"), ".")
	relay.Dir = filepath.Join(dir, "outbox-relay")
	relay.Env = append(os.Environ(), "GOFLAGS=-mod=readonly", "GOPROXY=off", "GOWORK=off")
	if b, err := relay.CombinedOutput(); err != nil {
		t.Errorf("relay module does not build offline: %v\n%s", err, b)
	}

	// The report fix printed (from the verification's load) is the one a
	// fresh load of the module as fix left it gives.
	var fixRep struct {
		Report json.RawMessage `json:"report"`
	}
	if err := json.Unmarshal(fixJSON, &fixRep); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errOut.Reset()
	run([]string{"report", "-C", dir, "--format", "json", "./..."}, &out, &errOut)
	var a, b2 bytes.Buffer
	json.Indent(&a, fixRep.Report, "", "  ")
	json.Indent(&b2, bytes.TrimSpace(out.Bytes()), "", "  ")
	if a.String() != b2.String() {
		t.Errorf("fix's closing report differs from report's on the module fix left:\n--- fix ---\n%s\n--- report ---\n%s\n%s", a.String(), b2.String(), errOut.String())
	}

	// scan after fix: exactly the findings left for a person.
	generated := map[string]bool{}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(generate.ManifestPath)))
	if err != nil {
		t.Fatal(err)
	}
	var man struct {
		Files map[string]string `json:"files"`
	}
	if err := json.Unmarshal(b, &man); err != nil {
		t.Fatal(err)
	}
	for p := range man.Files {
		generated[p] = true
	}
	out.Reset()
	errOut.Reset()
	run([]string{"scan", "-C", dir, "--format", "json", "./..."}, &out, &errOut)
	var scanned struct {
		Findings []struct {
			Rule string `json:"rule"`
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out.Bytes(), &scanned); err != nil {
		t.Fatalf("scan --format json: %v\n%s%s", err, out.String(), errOut.String())
	}
	var got, want []string
	for _, f := range scanned.Findings {
		if generated[f.File] {
			continue // the relay publishes by design; fix never edits generated code
		}
		got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Rule))
	}
	for _, m := range rec.Manual {
		want = append(want, fmt.Sprintf("%s:%d %s", m.File, m.Line, m.Rule))
	}
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("scan after fix:\n%s\nwant the manual findings:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A second run changes nothing.
	before := fixSnapshot(t, dir)
	out.Reset()
	errOut.Reset()
	pkgload.Reset()
	if code2 := run([]string{"fix", "-C", dir, "--allow-upgrade", "./..."}, &out, &errOut); code2 != code {
		t.Errorf("second fix exited %d, first %d\n%s%s", code2, code, out.String(), errOut.String())
	}
	// nothing to rewrite: the scan's load is the report's too
	if loads, typed := pkgload.Counts(); loads != 2 || typed != 1 {
		t.Errorf("second fix loaded packages %d times, %d of them type-checked; want 2 and 1 (the scan's graph + types, reused by the report)", loads, typed)
	}
	after := fixSnapshot(t, dir)
	for p, c := range after {
		if before[p] != c {
			t.Errorf("second fix changed %s", p)
		}
	}
}

func fixGoEnv(t *testing.T, key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", key, err)
	}
	return strings.TrimSpace(string(out))
}

func fixGoCmd(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func fixCopyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fixSnapshot maps every file of the module except the fix record to its content.
func fixSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if filepath.ToSlash(rel) == fixesFile {
			return nil
		}
		b, _ := os.ReadFile(p)
		m[rel] = string(b)
		return nil
	})
	return m
}

// cacheProxy is a GOPROXY list: the module cache as a file proxy, then the
// machine's own proxies (unless that is off).
func cacheProxy(modcache, machine string) string {
	p := "file://" + filepath.ToSlash(filepath.Join(modcache, "cache", "download"))
	if machine != "" && machine != "off" {
		p += "," + machine
	}
	return p
}
