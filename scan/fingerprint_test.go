package scan_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan"
)

// shapeOf type-checks src and returns the shape of the statement holding
// the first occurrence of marker.
func shapeOf(t *testing.T, src, marker string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("x", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	off := strings.Index(src, marker)
	if off < 0 {
		t.Fatalf("no %q in the source", marker)
	}
	return scan.StmtShape(f, info, fset.File(f.Pos()).Pos(off))
}

const shapeBase = `package x

type Bus struct{}

func (*Bus) Emit(topic string, data []byte) error { return nil }

var topic = "orders"

func Place(b *Bus, id string) error {
	return b.Emit(topic, []byte(id))
}
`

func TestStmtShape(t *testing.T) {
	base := shapeOf(t, shapeBase, "b.Emit")
	if base == "" {
		t.Fatal("no shape for a return statement")
	}
	same := map[string]string{
		"moved down, comments added": strings.Replace(shapeBase, "func Place", "// Place places.\n\n\nfunc Place", 1),
		"locals renamed":             strings.NewReplacer("b *Bus, id string", "bus *Bus, orderID string", "b.Emit(topic, []byte(id))", "bus.Emit(topic, []byte(orderID))").Replace(shapeBase),
		"layout":                     strings.Replace(shapeBase, "b.Emit(topic, []byte(id))", "b.Emit(\n\t\ttopic, /* the topic */\n\t\t[]byte(id),\n\t)", 1),
	}
	for name, src := range same {
		marker := "b.Emit"
		if strings.Contains(src, "bus.Emit") {
			marker = "bus.Emit"
		}
		if got := shapeOf(t, src, marker); got != base {
			t.Errorf("%s: shape changed:\n%s\n%s", name, base, got)
		}
	}
	differ := map[string]string{
		"other method":      strings.Replace(shapeBase, "return b.Emit(topic", "return b.Emit(topic+\"x\"", 1),
		"package var":       strings.NewReplacer("var topic", "var other", "Emit(topic", "Emit(other").Replace(shapeBase),
		"statement changed": strings.Replace(shapeBase, "return b.Emit(topic, []byte(id))", "err := b.Emit(topic, []byte(id))\n\treturn err", 1),
	}
	for name, src := range differ {
		if got := shapeOf(t, src, "b.Emit"); got == base {
			t.Errorf("%s: same shape %s", name, got)
		}
	}
}

func TestFingerprint(t *testing.T) {
	f := dualwrite.Finding{
		Rule: dualwrite.RuleAfterWrite, Func: "(*example.com/shop/svc.Service).Place",
		Publish: dualwrite.Call{Name: "(*github.com/nats-io/nats.go.Conn).Publish", Position: token.Position{Filename: "/m/svc/svc.go", Line: 19}},
		Write:   &dualwrite.Call{Name: "(*database/sql.DB).ExecContext", Position: token.Position{Filename: "/m/svc/svc.go", Line: 16}},
	}
	fp := scan.Fingerprint(f, "svc/svc.go", "pub", "wr")
	if len(fp) != 24 {
		t.Errorf("fingerprint %q: want 24 hex digits", fp)
	}
	moved := f
	moved.Publish.Position.Line, moved.Write = 40, &dualwrite.Call{Name: f.Write.Name, Position: token.Position{Filename: "/m/svc/svc.go", Line: 37}}
	moved.Message = "another message at svc.go:37"
	if got := scan.Fingerprint(moved, "svc/svc.go", "pub", "wr"); got != fp {
		t.Errorf("moved lines changed the fingerprint: %s -> %s", fp, got)
	}
	// the file counts only without an enclosing function
	if got := scan.Fingerprint(f, "svc/other.go", "pub", "wr"); got != fp {
		t.Errorf("the file changed a fingerprint with a function: %s -> %s", fp, got)
	}
	for name, g := range map[string]func() string{
		"rule": func() string {
			c := f
			c.Rule = dualwrite.RuleAfterCommit
			return scan.Fingerprint(c, "svc/svc.go", "pub", "wr")
		},
		"func": func() string {
			c := f
			c.Func = "example.com/shop/svc.Other"
			return scan.Fingerprint(c, "svc/svc.go", "pub", "wr")
		},
		"publish call": func() string {
			c := f
			c.Publish.Name = "x.Emit"
			return scan.Fingerprint(c, "svc/svc.go", "pub", "wr")
		},
		"write call": func() string {
			c := f
			c.Write = &dualwrite.Call{Name: "x.Save"}
			return scan.Fingerprint(c, "svc/svc.go", "pub", "wr")
		},
		"no write":      func() string { c := f; c.Write = nil; return scan.Fingerprint(c, "svc/svc.go", "pub", "wr") },
		"publish shape": func() string { return scan.Fingerprint(f, "svc/svc.go", "pub2", "wr") },
		"write shape":   func() string { return scan.Fingerprint(f, "svc/svc.go", "pub", "wr2") },
		"file, no func": func() string { c := f; c.Func = ""; return scan.Fingerprint(c, "svc/svc.go", "pub", "wr") },
	} {
		if got := g(); got == fp {
			t.Errorf("%s: fingerprint unchanged", name)
		}
	}
}

// TestLoadFingerprints: Load sets a fingerprint on every finding that stays
// when lines move above it.
func TestLoadFingerprints(t *testing.T) {
	dir := writeModule(t, map[string]string{"store/store.go": store, "svc/svc.go": svc})
	prog, err := scan.Load(dir, nil, scan.Options{Analyzer: toyAnalyzer})
	if err != nil {
		t.Fatal(err)
	}
	if len(prog.Findings) != 1 || prog.Findings[0].Fingerprint == "" {
		t.Fatalf("findings %+v: want one with a fingerprint", prog.Findings)
	}
	dir2 := writeModule(t, map[string]string{"store/store.go": store, "svc/svc.go": strings.Replace(svc, "func Place", "func Other() {}\n\n// Place places.\nfunc Place", 1)})
	prog2, err := scan.Load(dir2, nil, scan.Options{Analyzer: toyAnalyzer})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := prog.Findings[0], prog2.Findings[0]; a.Fingerprint != b.Fingerprint || a.Publish.Position.Line == b.Publish.Position.Line {
		t.Errorf("fingerprint %s at line %d, then %s at line %d: want the same fingerprint on another line",
			a.Fingerprint, a.Publish.Position.Line, b.Fingerprint, b.Publish.Position.Line)
	}
}
