package relaytest

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/outboxify/outboxify/internal/testenv"
	"github.com/outboxify/outboxify/templates"
)

// TestShardClaimPlansByIndex: the PostgreSQL claim of a shard reads the
// pending rows through the partial index in seq order. Left to itself the
// planner takes the shard filter for very selective, reads the whole table
// and sorts it (measured: 100 ms a claim on 200,000 pending rows instead of
// 2 ms); the batch transaction's gate statement turns sequential and bitmap
// scans off. The test runs the rendered gate and claim statements on a real
// table and reads EXPLAIN's plan.
func TestShardClaimPlansByIndex(t *testing.T) {
	url := testenv.PostgresDB(t)
	files, err := templates.Render(templates.Config{Module: ModulePath, DB: "postgres", Broker: "jetstream", Migrations: "sql"}, "migrations", "relay")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var consts map[string]string
	for _, f := range files {
		switch {
		case strings.HasSuffix(f.Path, ".sql") && !strings.HasSuffix(f.Path, ".down.sql"):
			if _, err := conn.Exec(ctx, string(f.Content)); err != nil {
				t.Fatalf("migration %s: %v", f.Path, err)
			}
		case strings.HasSuffix(f.Path, "/store_postgres.go"):
			consts = stringConsts(t, f.Content)
		}
	}
	gate, claim := consts["pgLockSQL"], consts["pgClaimSQL"]
	if gate == "" || claim == "" {
		t.Fatalf("pgLockSQL or pgClaimSQL not found in the rendered store_postgres.go")
	}
	// 20,000 pending rows over 1,000 aggregates, statistics gathered.
	if _, err := conn.Exec(ctx, `INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload)
SELECT gen_random_uuid(), 't', 'agg-' || (g % 1000), 'e', '{}' FROM generate_series(1, 20000) g`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "ANALYZE outbox"); err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	// A fresh claim of shard 1 of 2 (class 1, other class 2, no batch beside,
	// plan_cache_mode auto, the session bound of a 60 s failover).
	var open bool
	var vxid string
	if err := tx.QueryRow(ctx, gate, int32(1), int32(1), true, int64(2), "", "auto", "60000", "15", "5", "30000").Scan(&open, &vxid); err != nil {
		t.Fatalf("gate: %v", err)
	}
	if !open {
		t.Fatal("gate closed on an idle database")
	}
	if !strings.Contains(vxid, "/") {
		t.Fatalf("the lock statement returned %q, want the batch's virtualtransaction (backend/local id)", vxid)
	}
	// The failover bound, read back from the batch's own session (base
	// units: ms, s, s, count, ms); the keepalives apply on TCP connections,
	// which the test's is.
	for name, want := range map[string]string{"idle_in_transaction_session_timeout": "60000", "tcp_keepalives_idle": "15",
		"tcp_keepalives_interval": "5", "tcp_keepalives_count": "3", "tcp_user_timeout": "30000"} {
		var got string
		if err := tx.QueryRow(ctx, "SELECT setting FROM pg_settings WHERE name = $1", name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("batch session %s = %s, want %s", name, got, want)
		}
	}
	// EXPLAIN of the claim with its parameters inlined: the custom plan.
	explain := "EXPLAIN " + strings.NewReplacer("$1::int4", "2::int4", "$2::int4", "1::int4", "$3", "1000",
		"$4::bool", "true", "$5::text[]", "'{}'::text[]").Replace(claim)
	rows, err := tx.Query(ctx, explain)
	if err != nil {
		t.Fatalf("explain claim: %v", err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	plan := strings.Join(lines, "\n")
	if !strings.Contains(plan, "Index Scan using outbox_unpublished on outbox o") || strings.Contains(plan, "Seq Scan on outbox o") || strings.Contains(plan, "Sort") {
		t.Fatalf("the shard claim does not read the pending rows in seq order by index:\n%s", plan)
	}
}

// stringConsts evaluates the package-level string constants of a Go file
// that are literals or concatenations of literals and other such constants.
func stringConsts(t *testing.T, src []byte) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "store_postgres.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	exprs := map[string]ast.Expr{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if i < len(vs.Values) {
						exprs[n.Name] = vs.Values[i]
					}
				}
			}
		}
	}
	var eval func(ast.Expr) (string, bool)
	eval = func(e ast.Expr) (string, bool) {
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind != token.STRING {
				return "", false
			}
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		case *ast.Ident:
			if x, ok := exprs[e.Name]; ok {
				return eval(x)
			}
		case *ast.BinaryExpr:
			if e.Op == token.ADD {
				a, ok1 := eval(e.X)
				b, ok2 := eval(e.Y)
				return a + b, ok1 && ok2
			}
		}
		return "", false
	}
	out := map[string]string{}
	for name, e := range exprs {
		if s, ok := eval(e); ok {
			out[name] = s
		}
	}
	return out
}
