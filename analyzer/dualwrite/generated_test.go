package dualwrite_test

import (
	"os"
	"path"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/internal/testmod"
	"github.com/outboxify/outboxify/templates"
)

// TestGeneratedCodeSilent renders the outbox writer, the inbox with its
// consumer glue and the relay outboxify generates, for several database,
// driver and broker choices, into one module, and checks that neither the
// CLI's analyzer (interface resolution) nor go vet's (facts) reports
// anything on them: the relay reads and marks the outbox, the inbox glue
// only records message ids and acks or dead-letters.
func TestGeneratedCodeSilent(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks generated code and its client libraries")
	}
	const module = "example.com/gen"
	cases := []templates.Config{
		{DB: "postgres", Driver: "pgx", Broker: "kafka-go"},
		{DB: "mysql", Driver: "database/sql", Broker: "amqp091"},
		{DB: "postgres", Driver: "sqlx", Broker: "sarama"},
		{DB: "postgres", Driver: "gorm", Broker: "nats"},
		{DB: "postgres", Driver: "database/sql", Broker: "redis"},
	}
	files := map[string][]byte{}
	for _, c := range cases {
		id := strings.NewReplacer("/", "", "-", "").Replace(c.DB + "_" + c.Driver + "_" + c.Broker)
		c.Module = module
		c.OutboxDir, c.InboxDir, c.RelayDir = path.Join("gen", id, "outbox"), path.Join("gen", id, "inbox"), path.Join("gen", id, "outboxrelay")
		out, err := templates.Render(c, "outbox", "inbox", "relay")
		if err != nil {
			t.Fatalf("render %s: %v", id, err)
		}
		for _, f := range out {
			if strings.HasSuffix(f.Path, ".go") && !strings.HasSuffix(f.Path, "_test.go") {
				files[f.Path] = f.Content
			}
		}
	}
	dir := testmod.New(t, module, files)
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: dir,
		Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("generated code does not type-check")
	}
	cli := findings(t, dualwrite.NewAnalyzer(dualwrite.Options{Resolver: dualwrite.ProgramResolver(pkgs, nil)}), pkgs)
	vet := findings(t, dualwrite.Analyzer, pkgs)
	for _, set := range []map[string]dualwrite.Finding{cli, vet} {
		for k, f := range set {
			t.Errorf("finding on generated code: %s %s", k, f.Message)
		}
	}
	t.Logf("%d packages of generated code checked", len(pkgs))
}
