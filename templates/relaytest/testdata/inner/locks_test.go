package relaytest

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// writeLocked adds one row for aggregate agg the way the generated MySQL
// writer does (the aggregate's row in outbox_aggregate_lock first, held
// until commit, then the outbox row). Its payload's n is the aggregate's
// row count plus one, read under that lock: two writers that both held the
// lock at once would write the same n.
func writeLocked(ctx context.Context, db *sql.DB, aggType, agg string) (string, error) {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO outbox_aggregate_lock (lock_key) VALUES (?) ON DUPLICATE KEY UPDATE lock_key = lock_key`, aggType+":"+agg); err != nil {
		return "", fmt.Errorf("lock aggregate: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox WHERE aggregate_type = ? AND aggregate_id = ?`, aggType, agg).Scan(&n); err != nil {
		return "", fmt.Errorf("count: %w", err)
	}
	id := newID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload, headers) VALUES (?, ?, ?, 'thing.happened', ?, '{}')`,
		id, aggType, agg, fmt.Sprintf(`{"agg": %q, "n": %d}`, agg, n+1)); err != nil {
		return "", fmt.Errorf("insert: %w", err)
	}
	return id, tx.Commit()
}

func lockKeys(t testing.TB, d *testDB) []string {
	t.Helper()
	rows, err := d.sql.Query(`SELECT lock_key FROM outbox_aggregate_lock ORDER BY lock_key`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	return keys
}

type cleanupJSON struct {
	OutboxDeleted int64 `json:"outbox_deleted"`
	InboxDeleted  int64 `json:"inbox_deleted"`
	LocksDeleted  int64 `json:"aggregate_locks_deleted"`
}

func runCleanupJSON(t *testing.T, c relayCase, d *testDB, args ...string) cleanupJSON {
	t.Helper()
	code, out := runCLI(t, c, append([]string{"cleanup", "--database-url", d.url, "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("cleanup: exit %d\n%s", code, out)
	}
	var res cleanupJSON
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &res); err != nil {
		t.Fatalf("cleanup --json: %v\n%s", err, out)
	}
	return res
}

// TestAggregateLockPrune (MySQL/MariaDB): cleanup deletes the
// outbox_aggregate_lock rows of aggregates with nothing pending, in
// batches, and keeps those of aggregates with pending rows. While cleanup
// runs in a loop, writers keep inserting for the same aggregates with the
// writer's lock: no write fails (no deadlock, no lock wait timeout), the
// per-aggregate lock still serialises them (n is 1, 2, 3, ... by seq) and
// the relay publishes every row.
func TestAggregateLockPrune(t *testing.T) {
	c := get(t, "my_jetstream")
	d := openDB(t, "mysql")
	ctx := context.Background()
	const idle, busy = 50, 5
	for i := 0; i < idle; i++ {
		if _, err := writeLocked(ctx, d.sql, "p", fmt.Sprint("a", i)); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < busy; i++ {
		if _, err := writeLocked(ctx, d.sql, "q", fmt.Sprint("b", i)); err != nil {
			t.Fatal(err)
		}
	}
	d.exec(t, `UPDATE outbox SET published_at = CURRENT_TIMESTAMP WHERE aggregate_type = 'p'`)
	d.exec(t, `UPDATE outbox SET dead_at = CURRENT_TIMESTAMP WHERE aggregate_type = 'q' AND aggregate_id = 'b0'`)
	if n := len(lockKeys(t, d)); n != idle+busy {
		t.Fatalf("%d lock rows before cleanup, want %d", n, idle+busy)
	}
	res := runCleanupJSON(t, c, d, "--batch-size", "7")
	keys := lockKeys(t, d)
	t.Logf("first cleanup: %+v; lock rows left %v", res, keys)
	// b0's only row is a dead letter: nothing pending, so its row goes too.
	want := []string{"q:b1", "q:b2", "q:b3", "q:b4"}
	if res.LocksDeleted != idle+1 || strings.Join(keys, ",") != strings.Join(want, ",") {
		t.Fatalf("cleanup deleted %d lock rows, left %v; want %d deleted, left %v", res.LocksDeleted, keys, idle+1, want)
	}

	// Concurrent (aggregates of type r): a relay publishes, writers
	// insert, cleanup prunes.
	rec := &recorder{}
	o := defaultFake()
	o.BatchSize = 20
	stopRelay := runFake(t, c, d, rec, o)
	const aggs, writers, perWriter = 8, 6, 150
	var (
		mu       sync.Mutex
		written  []string
		writeErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < perWriter; i++ {
				id, err := writeLocked(ctx, d.sql, "r", fmt.Sprint("a", (w+i)%aggs))
				mu.Lock()
				if err != nil && writeErr == nil {
					writeErr = err
				}
				if err == nil {
					written = append(written, id)
				}
				mu.Unlock()
				if err != nil {
					return
				}
				if i%10 == 0 {
					time.Sleep(5 * time.Millisecond) // let aggregates go idle now and then
				}
			}
		}(w)
	}
	done := make(chan struct{})
	var pruned, runs atomic.Int64
	var cleanErr atomic.Value
	go func() {
		defer close(done)
		for {
			time.Sleep(2 * time.Millisecond)
			code, out := runCLI(t, c, "cleanup", "--database-url", d.url, "--json", "--batch-size", "3")
			if code != 0 {
				cleanErr.Store(out)
				return
			}
			var r cleanupJSON
			_ = json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &r)
			pruned.Add(r.LocksDeleted)
			runs.Add(1)
			mu.Lock()
			finished := len(written) == writers*perWriter || writeErr != nil
			mu.Unlock()
			if finished {
				return
			}
		}
	}()
	wg.Wait()
	<-done
	if writeErr != nil {
		t.Fatalf("a writer failed while cleanup pruned the lock table: %v", writeErr)
	}
	if v := cleanErr.Load(); v != nil {
		t.Fatalf("cleanup failed:\n%s", v)
	}
	eventually(t, 60*time.Second, "every written row published", func() bool {
		return d.count(t, "published_at IS NULL AND aggregate_type = 'r'") == 0
	})
	if err := stopRelay(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]bool{}
	for _, id := range rec.ackedIDs() {
		acked[id] = true
	}
	lost := 0
	for _, id := range written {
		if !acked[id] {
			lost++
		}
	}
	// Per aggregate, n by seq is 1, 2, 3, ...: the lock held throughout.
	rows, err := d.sql.Query(`SELECT aggregate_id, payload FROM outbox WHERE aggregate_type = 'r' ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	next := map[string]int{}
	bad := 0
	for rows.Next() {
		var agg, payload string
		if err := rows.Scan(&agg, &payload); err != nil {
			t.Fatal(err)
		}
		var v struct{ N int }
		_ = json.Unmarshal([]byte(payload), &v)
		next[agg]++
		if v.N != next[agg] {
			bad++
		}
	}
	var payloads []struct{ agg, body string }
	rec.mu.Lock()
	for _, m := range rec.acked {
		if m.AggregateType == "r" {
			payloads = append(payloads, struct{ agg, body string }{m.AggregateID, string(m.Payload)})
		}
	}
	rec.mu.Unlock()
	checkOrder(t, payloads)
	final := runCleanupJSON(t, c, d)
	pruned.Add(final.LocksDeleted)
	left := lockKeys(t, d)
	sort.Strings(left)
	t.Logf("concurrent: written %d, acked %d distinct, lost %d, out of lock order %d, cleanup runs %d, lock rows pruned %d, left %v",
		len(written), len(acked), lost, bad, runs.Load(), pruned.Load(), left)
	if len(written) != writers*perWriter || lost != 0 || bad != 0 {
		t.Fatalf("written %d (want %d), lost %d, out of order %d", len(written), writers*perWriter, lost, bad)
	}
	if pruned.Load() < aggs {
		t.Fatalf("cleanup pruned %d lock rows during and after the writes, want at least %d", pruned.Load(), aggs)
	}
	// The relay published the q rows too: nothing is pending, no lock row is left.
	if len(left) != 0 {
		t.Fatalf("lock rows left %v, want none", left)
	}
}
