package relaytest

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/outboxify/outboxify/internal/testenv"
	"github.com/outboxify/outboxify/templates"
)

// deadRows is how many dead letters, and how many rows blocked behind one,
// the claim must not pay for.
const deadRows = 100_000

// TestDeadRowsStayOutOfTheClaim (issue 21, point 4): dead letters and, in
// block mode, the rows held back behind one must not be in the claim's
// path. The claim's cost is measured on the empty table, beside 10
// claimable rows, then with 100,000 dead letters and one dead letter with
// 100,000 rows of its aggregate behind it added (after the relay's block
// statement, the one its workers run, has taken those out of the claim
// index), with and without the 10 claimable rows. Without claimable rows
// the claim must stay within 2x of the empty table's (this table once all
// its rows are published: see deadRowsCheck); with them within 2x
// of theirs plus, per claimed row, one descent more into the index of held
// rows (each claimed row looks up whether its aggregate is held, and that
// index now holds 100,000 entries: a deeper tree, not more rows read).
// PostgreSQL: the buffers of EXPLAIN (ANALYZE, BUFFERS) of the claim, run
// as a batch runs it (after the gate statement); MariaDB: the claim's
// Handler_read_* counts. A VACUUM (autovacuum's job in production) precedes
// each measurement: updated rows leave index entries behind until then, as
// every published row does.
func TestDeadRowsStayOutOfTheClaim(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200,000 rows per database")
	}
	for _, db := range []string{"postgres", "mysql"} {
		t.Run(db, func(t *testing.T) {
			t.Parallel()
			files, err := templates.Render(templates.Config{Module: ModulePath, DB: db, Broker: "nats", Migrations: "sql"}, "migrations", "relay")
			if err != nil {
				t.Fatal(err)
			}
			var migration string
			var consts map[string]string
			for _, f := range files {
				switch {
				case strings.HasSuffix(f.Path, ".sql") && !strings.HasSuffix(f.Path, ".down.sql"):
					migration = string(f.Content)
				case strings.HasSuffix(f.Path, "/store_postgres.go"), strings.HasSuffix(f.Path, "/store_mysql.go"):
					consts = stringConsts(t, f.Content)
				}
			}
			if db == "postgres" {
				deadRowsPostgres(t, migration, consts)
			} else {
				deadRowsMySQL(t, migration, consts)
			}
		})
	}
}

var pgBuffers = regexp.MustCompile(`Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?`)

func deadRowsPostgres(t *testing.T, migration string, consts map[string]string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testenv.PostgresDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	exec := func(q string, args ...any) int64 {
		t.Helper()
		tag, err := conn.Exec(ctx, q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return tag.RowsAffected()
	}
	exec(migration)
	gate, claim := consts["pgLockSQL"], consts["pgClaimSQL"]
	if gate == "" || claim == "" {
		t.Fatal("pgLockSQL or pgClaimSQL not in the rendered store")
	}
	// measure runs the gate and the claim (shard 1 of 1, block mode, limit
	// 500) in a batch transaction and returns the claim's buffers and rows.
	measure := func() (buffers, rows int) {
		t.Helper()
		// INDEX_CLEANUP ON: VACUUM skips the indexes when under 2% of the
		// table's pages hold dead rows, and left the 10 deleted claimable
		// rows' entries in the claim index (5 buffers instead of 2).
		exec("VACUUM (ANALYZE, INDEX_CLEANUP ON) outbox")
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback(ctx) }()
		var open bool
		var vxid string
		if err := tx.QueryRow(ctx, gate, int32(1), int32(0), true, int64(2), "", "auto", "60000", "15", "5", "30000").Scan(&open, &vxid); err != nil || !open {
			t.Fatalf("gate: open %v, %v", open, err)
		}
		explain := "EXPLAIN (ANALYZE, BUFFERS, TIMING OFF) " + strings.NewReplacer("$1::int4", "1::int4", "$2::int4", "0::int4", "$3", "500",
			"$4::bool", "true", "$5::text[]", "'{}'::text[]").Replace(claim)
		r, err := tx.Query(ctx, explain)
		if err != nil {
			t.Fatalf("explain claim: %v", err)
		}
		lines, err := pgx.CollectRows(r, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		// The first Buffers line is the top node's: the whole execution.
		m := pgBuffers.FindStringSubmatch(plan)
		rm := regexp.MustCompile(`actual rows=(\d+)`).FindStringSubmatch(plan)
		if m == nil || rm == nil {
			t.Fatalf("no buffers or rows in the claim's plan:\n%s", plan)
		}
		hit, _ := strconv.Atoi(m[1])
		read, _ := strconv.Atoi(m[2])
		rows, _ = strconv.Atoi(rm[1])
		t.Logf("claim plan:\n%s", plan)
		return hit + read, rows
	}
	live := func() {
		exec(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload)
SELECT gen_random_uuid(), 'live', 'l' || g, 'e', '{}' FROM generate_series(1, 10) g`)
	}
	held := func() {
		// Dead letters as the relay leaves them: attempts used,
		// next_attempt_at and dead_at set; then one more, and the rows of
		// its aggregate written after it.
		exec(fmt.Sprintf(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, attempts, last_error, next_attempt_at, dead_at)
SELECT gen_random_uuid(), 'dead', 'd' || g, 'e', '{}', 10, 'rejected', now(), now() FROM generate_series(1, %d) g`, deadRows))
		exec(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, attempts, last_error, next_attempt_at, dead_at)
VALUES (gen_random_uuid(), 'blk', 'b1', 'e', '{}', 10, 'rejected', now(), now())`)
		exec(fmt.Sprintf(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload)
SELECT gen_random_uuid(), 'blk', 'b1', 'e', '{}' FROM generate_series(1, %d) g`, deadRows))
		block := consts["pgBlockSQL"]
		if block == "" {
			t.Error("no pgBlockSQL in the rendered store: nothing takes the rows blocked behind a dead letter out of the claim index")
			return
		}
		var blocked int64
		for {
			n := exec(block, int32(1), int32(0), int64(0), 10_000)
			blocked += n
			if n < 10_000 {
				break
			}
		}
		if blocked != deadRows {
			t.Errorf("the block statement blocked %d rows, want the %d behind the dead letter", blocked, deadRows)
		}
	}
	deadRowsCheck(t, measure, live, held, func() { exec(`DELETE FROM outbox WHERE aggregate_type = 'live'`) },
		func() {
			exec(`UPDATE outbox SET published_at = now(), next_attempt_at = NULL WHERE published_at IS NULL`)
		})
}

// deadRowsCheck runs the measurements of TestDeadRowsStayOutOfTheClaim:
// measure returns the claim's cost and rows, live adds the 10 claimable
// rows, held the dead letters and blocked rows, unlive deletes the
// claimable rows.
func deadRowsCheck(t *testing.T, measure func() (int, int), live, held, unlive, drain func()) {
	t.Helper()
	claimed := func(rows, want int) {
		t.Helper()
		if rows != want {
			t.Fatalf("the claim returned %d rows, want %d", rows, want)
		}
	}
	empty, rows := measure()
	claimed(rows, 0)
	live()
	base, rows := measure()
	claimed(rows, 10)
	held()
	what := fmt.Sprintf("%d dead letters and %d rows blocked behind one", deadRows, deadRows)
	got, rows := measure()
	claimed(rows, 10)
	t.Logf("%s, 10 claimable rows: %d (10 claimable rows alone: %d)", what, got, base)
	// One descent (at most 4 pages) into the held rows' index per claimed row.
	if got > 2*base+4*10 {
		t.Errorf("%s: the claim of 10 rows costs %d, more than twice the %d it costs alone plus one index descent per row", what, got, base)
	}
	unlive()
	got, rows = measure()
	claimed(rows, 0)
	// Also compared with this table once every row is published: 100,000
	// rows went through the claim index, and a B-tree keeps its height
	// after VACUUM empties it, whatever held the rows.
	drain()
	drained, rows := measure()
	claimed(rows, 0)
	t.Logf("%s, nothing claimable: %d (the table with every row published: %d; a table that never held a row: %d)", what, got, drained, empty)
	if got > 2*drained || got > 2*empty {
		t.Errorf("%s: the claim costs %d, more than twice the %d it costs on the same table with every row published or the %d on the empty table", what, got, drained, empty)
	}
}

func deadRowsMySQL(t *testing.T, migration string, consts map[string]string) {
	ctx := context.Background()
	db, err := sql.Open("mysql", testenv.MySQLDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// One session: FLUSH STATUS and the Handler counters are per session.
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	exec := func(q string, args ...any) int64 {
		t.Helper()
		r, err := conn.ExecContext(ctx, q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		n, _ := r.RowsAffected()
		return n
	}
	exec(migration)
	var connID int64
	if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&connID); err != nil {
		t.Fatal(err)
	}
	claim := consts["myClaimSQL"]
	if claim == "" {
		t.Fatal("myClaimSQL not in the rendered store")
	}
	// measure runs the claim (shard 1 of 1, block mode, limit 500) and
	// returns the rows the storage engine read for it, and the rows claimed.
	measure := func() (reads, rows int) {
		t.Helper()
		exec("ANALYZE TABLE outbox")
		exec("FLUSH STATUS")
		// A claim that reads for a minute has failed already (without the
		// block statement, 100,000 blocked rows took MariaDB over ten); the
		// server does not stop a query whose client went away, so it is
		// killed from another session.
		timer := time.AfterFunc(time.Minute, func() { _, _ = db.Exec(fmt.Sprintf("KILL QUERY %d", connID)) })
		defer timer.Stop()
		r, err := conn.QueryContext(ctx, claim, true, 1, 1, 0, 500)
		if err != nil {
			t.Fatalf("claim (killed after a minute): %v", err)
		}
		for r.Next() {
			rows++
		}
		if err := r.Err(); err != nil {
			t.Fatalf("claim (killed after a minute): %v", err)
		}
		r.Close()
		st, err := conn.QueryContext(ctx, "SHOW SESSION STATUS LIKE 'Handler_read%'")
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var parts []string
		for st.Next() {
			var name string
			var v int
			if err := st.Scan(&name, &v); err != nil {
				t.Fatal(err)
			}
			reads += v
			if v > 0 {
				parts = append(parts, fmt.Sprintf("%s=%d", name, v))
			}
		}
		t.Logf("claim: %s", strings.Join(parts, " "))
		return reads, rows
	}
	live := func() {
		exec(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload)
SELECT UUID(), 'live', CONCAT('l', seq), 'e', '{}' FROM seq_1_to_10`)
	}
	held := func() {
		exec(fmt.Sprintf(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, attempts, last_error, next_attempt_at, dead_at)
SELECT UUID(), 'dead', CONCAT('d', seq), 'e', '{}', 10, 'rejected', NOW(6), NOW(6) FROM seq_1_to_%d`, deadRows))
		exec(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, attempts, last_error, next_attempt_at, dead_at)
VALUES (UUID(), 'blk', 'b1', 'e', '{}', 10, 'rejected', NOW(6), NOW(6))`)
		exec(fmt.Sprintf(`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload)
SELECT UUID(), 'blk', 'b1', 'e', '{}' FROM seq_1_to_%d`, deadRows))
		sel, set := consts["myBlockSQL"], consts["mySetBlockedSQL"]
		if sel == "" || set == "" {
			t.Error("no myBlockSQL and mySetBlockedSQL in the rendered store: nothing takes the rows blocked behind a dead letter out of the claim's key range")
			return
		}
		// As the relay's block round runs them: select a batch, block it.
		var blocked, from int64
		for {
			r, err := conn.QueryContext(ctx, sel, from, 1, 1, 0, 10_000)
			if err != nil {
				t.Fatal(err)
			}
			var seqs []any
			for r.Next() {
				var seq int64
				if err := r.Scan(&seq); err != nil {
					t.Fatal(err)
				}
				seqs = append(seqs, seq)
				from = seq
			}
			r.Close()
			if len(seqs) == 0 {
				break
			}
			blocked += exec(fmt.Sprintf(set, "NOW(6)", "IS NULL", "?"+strings.Repeat(",?", len(seqs)-1)), seqs...)
		}
		if blocked != deadRows {
			t.Errorf("the block statements blocked %d rows, want the %d behind the dead letter", blocked, deadRows)
		}
	}
	deadRowsCheck(t, measure, live, held, func() { exec(`DELETE FROM outbox WHERE aggregate_type = 'live'`) },
		func() {
			exec(`UPDATE outbox SET published_at = NOW(6), next_attempt_at = NULL WHERE published_at IS NULL`)
		})
}
