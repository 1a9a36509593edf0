package scan_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/internal/pkgload"
	"github.com/outboxify/outboxify/scan"
)

// recheckModule: a service whose Place writes through a repository and
// then publishes through a configured bus, and an api package importing
// the service (it must be type-checked again when the service changes).
func recheckModule(t *testing.T) string {
	return writeModule(t, map[string]string{
		".outboxify.yaml": "publishers:\n  - name: \"(*example.com/toy/bus.Bus).Send\"\n    broker: kafka\n",
		"bus/bus.go":      "package bus\n\nimport \"context\"\n\ntype Bus struct{}\n\nfunc (b *Bus) Send(ctx context.Context, topic string, v []byte) error { return nil }\n",
		"repo/repo.go":    "package repo\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n)\n\nfunc Save(ctx context.Context, db *sql.DB, id string) error {\n\t_, err := db.ExecContext(ctx, \"INSERT INTO orders (id) VALUES ($1)\", id)\n\treturn err\n}\n",
		"svc/svc.go":      recheckSvc(""),
		"api/api.go":      "package api\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\n\t\"example.com/toy/bus\"\n\t\"example.com/toy/svc\"\n)\n\nfunc Handle(ctx context.Context, db *sql.DB, b *bus.Bus) error { return svc.Place(ctx, db, b, \"1\") }\n",
	})
}

// recheckSvc is svc.go; extra goes at the end of the file.
func recheckSvc(extra string) string {
	return "package svc\n\nimport (\n\t\"context\"\n\t\"database/sql\"\n\n\t\"example.com/toy/bus\"\n\t\"example.com/toy/repo\"\n)\n\n" +
		"// Place stores the order, then announces it.\nfunc Place(ctx context.Context, db *sql.DB, b *bus.Bus, id string) error {\n\tif err := repo.Save(ctx, db, id); err != nil {\n\t\treturn err\n\t}\n\treturn b.Send(ctx, \"orders\", []byte(id))\n}\n" + extra
}

func findingKeys(p *scan.Program) []string {
	var out []string
	for _, f := range p.Findings {
		out = append(out, fmt.Sprintf("%s %s %s %s", p.Rel(f.Publish.Position.String()), f.Rule, f.Message, f.Fingerprint))
	}
	return out
}

func rootPaths(pkgs []*packages.Package) []string {
	var out []string
	for _, p := range pkgs {
		out = append(out, p.PkgPath)
	}
	return out
}

// TestRecheckAgreesWithLoad: an edited file and a package the overlay adds
// (importing a standard package the program had not loaded), type-checked
// in memory, give the program a load with the same overlay gives: the same
// roots and the same findings, fingerprints included, with no load.
func TestRecheckAgreesWithLoad(t *testing.T) {
	dir := recheckModule(t)
	prog, err := scan.Load(dir, nil, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Findings) != 1 {
		t.Fatalf("fixture: want one finding, got %q", findingKeys(prog))
	}
	overlay := map[string][]byte{
		// a second dual write in the edited file, through the added package
		filepath.Join(dir, "svc", "svc.go"): []byte(strings.Replace(recheckSvc(
			"\n// Cancel deletes the order, then announces it.\nfunc Cancel(ctx context.Context, db *sql.DB, b *bus.Bus, id string) error {\n\tif _, err := db.ExecContext(ctx, \"DELETE FROM orders WHERE id = $1\", id); err != nil {\n\t\treturn err\n\t}\n\tnote.Log(id)\n\treturn b.Send(ctx, \"orders\", []byte(id))\n}\n"),
			"\"example.com/toy/bus\"", "\"example.com/toy/bus\"\n\t\"example.com/toy/note\"", 1)),
		filepath.Join(dir, "note", "note.go"): []byte("package note\n\nimport \"log/slog\"\n\n// Log logs an id.\nfunc Log(id string) { slog.Info(\"order\", \"id\", id) }\n"),
		// another module's file and a migration: not this program
		filepath.Join(dir, "relay", "go.mod"):        []byte("module example.com/relay\n\ngo 1.26\n"),
		filepath.Join(dir, "relay", "main.go"):       []byte("package main\n\nfunc main() { undefined() }\n"),
		filepath.Join(dir, "migrations", "1.up.sql"): []byte("CREATE TABLE outbox (id bigint);\n"),
	}
	pkgload.Reset()
	re, checked, err := prog.Recheck(overlay)
	if err != nil {
		t.Fatalf("Recheck: %v", err)
	}
	if loads, _ := pkgload.Counts(); loads != 0 {
		t.Errorf("Recheck loaded packages %d times, want 0", loads)
	}
	if re == nil {
		t.Fatalf("Recheck gave no program; checked packages' errors: %v", checkedErrors(checked))
	}
	loaded, err := scan.Load(dir, nil, scan.Options{Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rootPaths(re.Packages), rootPaths(loaded.Packages); !slices.Equal(got, want) {
		t.Errorf("roots: recheck %q, load %q", got, want)
	}
	if got, want := findingKeys(re), findingKeys(loaded); len(want) != 2 || !slices.Equal(got, want) {
		t.Errorf("findings:\nrecheck %q\nload    %q (want 2)", got, want)
	}
	// api was type-checked again: it sees the new svc, not the old one.
	var api, svc *packages.Package
	for _, p := range re.Packages {
		switch p.PkgPath {
		case "example.com/toy/api":
			api = p
		case "example.com/toy/svc":
			svc = p
		}
	}
	if api == nil || svc == nil || api.Imports["example.com/toy/svc"] != svc || svc.Types.Scope().Lookup("Cancel") == nil {
		t.Errorf("api does not import the rechecked svc")
	}
	// The program it started from is untouched.
	if len(prog.Findings) != 1 {
		t.Errorf("the previous program changed: %q", findingKeys(prog))
	}
}

// TestRecheckReportsErrors: an edit that does not type-check is reported
// on its package with the edited file's position, and no program is given.
func TestRecheckReportsErrors(t *testing.T) {
	dir := recheckModule(t)
	prog, err := scan.Load(dir, nil, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "svc", "svc.go")
	re, checked, err := prog.Recheck(map[string][]byte{file: []byte(recheckSvc("\nfunc Broken() int { return \"x\" }\n"))})
	if err != nil {
		t.Fatal(err)
	}
	if re != nil {
		t.Errorf("a program with a type error was analysed")
	}
	errs := checkedErrors(checked)
	if len(errs) != 1 || !strings.HasPrefix(errs[0], file+":") {
		t.Errorf("errors %q, want one in %s", errs, file)
	}
}

// TestRecheckNeedsLoad: an import of a package the program did not load
// cannot be checked in memory; the caller is told to load.
func TestRecheckNeedsLoad(t *testing.T) {
	dir := recheckModule(t)
	prog, err := scan.Load(dir, []string{"./svc"}, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// api exists on disk but ./svc did not load it
	file := filepath.Join(dir, "svc", "svc.go")
	src := strings.Replace(recheckSvc(""), "\"example.com/toy/repo\"", "\"example.com/toy/repo\"\n\t_ \"example.com/toy/api\"", 1)
	if _, _, err := prog.Recheck(map[string][]byte{file: []byte(src)}); !errors.Is(err, scan.ErrNoRecheck) {
		t.Errorf("Recheck with an unloaded import: %v, want ErrNoRecheck", err)
	}
}

func checkedErrors(pkgs []*packages.Package) []string {
	var out []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			out = append(out, e.Pos+": "+e.Msg)
		}
	}
	return out
}

func TestMatchPatterns(t *testing.T) {
	base := filepath.FromSlash("/m")
	for _, c := range []struct {
		patterns []string
		dir      string
		want     bool
	}{
		{[]string{"./..."}, "/m/internal/outbox", true},
		{[]string{"./..."}, "/m", true},
		{[]string{"./svc/..."}, "/m/internal/outbox", false},
		{[]string{"./internal/..."}, "/m/internal/outbox", true},
		{[]string{"./internal"}, "/m/internal/outbox", false},
		{[]string{"./internal/outbox"}, "/m/internal/outbox", true},
		{[]string{"./..."}, "/m/testdata/outbox", false},
		{[]string{"./..."}, "/m/_gen/outbox", false},
		{[]string{"example.com/toy/..."}, "/m/internal/outbox", true},
		{[]string{"example.com/toy/internal/outbox"}, "/m/internal/outbox", true},
		{[]string{"example.com/other/..."}, "/m/internal/outbox", false},
	} {
		got, err := scan.MatchPatterns(c.patterns, base, filepath.FromSlash(c.dir), "example.com/toy"+strings.TrimPrefix(c.dir, "/m"))
		if err != nil || got != c.want {
			t.Errorf("%q %s: %v %v, want %v", c.patterns, c.dir, got, err, c.want)
		}
	}
	if _, err := scan.MatchPatterns([]string{"all"}, base, "/m/x", "example.com/toy/x"); !errors.Is(err, scan.ErrNoRecheck) {
		t.Errorf("pattern all: %v", err)
	}
}
