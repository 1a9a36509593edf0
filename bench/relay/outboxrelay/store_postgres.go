package outboxrelay

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// NotifyChannel is the channel the outbox insert trigger NOTIFYs.
const NotifyChannel = "outbox"

// defaultNotify is "off" when the migration was generated without the NOTIFY
// trigger: then there is nothing to listen for.
const defaultNotify = "auto"

// Open connects to PostgreSQL (a URL or key=value DSN) with a pool of at most
// maxConns connections (0: the pgx default).
func Open(ctx context.Context, url string, maxConns int) (*DB, error) {
	return openTLS(ctx, url, maxConns, nil)
}

// openTLS is Open with the TLS configuration of the --database-tls-* flags
// (nil: the URL's sslmode, sslrootcert, sslcert, sslkey decide). Given one,
// every connection uses it: no plaintext fallback, and the server name is
// the URL's host unless the flags name another.
func openTLS(ctx context.Context, url string, maxConns int, tc *tls.Config) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse database URL: %w", err)
	}
	if tc != nil {
		if tc.ServerName == "" {
			tc.ServerName = cfg.ConnConfig.Host
		}
		cfg.ConnConfig.TLSConfig = tc
		for _, fb := range cfg.ConnConfig.Fallbacks {
			fb.TLSConfig = tc
		}
	}
	if maxConns > 0 {
		cfg.MaxConns = int32(maxConns)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	if tc != nil {
		// The pool connects lazily: a certificate either side refuses
		// shows here, at start, rather than as a failing batch.
		if err := pool.Ping(ctx); err != nil && tlsFailure(err) {
			pool.Close()
			return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
		}
	}
	return &DB{s: &pgStore{pool: pool, ownPool: true}}, nil
}

// FromPool uses an existing pgx pool (not closed by DB.Close).
func FromPool(pool *pgxpool.Pool) *DB { return &DB{s: &pgStore{pool: pool}} }

type pgStore struct {
	pool    *pgxpool.Pool
	ownPool bool
}

func (s *pgStore) close() {
	if s.ownPool {
		s.pool.Close()
	}
}

func (s *pgStore) ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// maxPipeline: two batch transactions of a shard may be in flight.
const maxPipeline = 2

const dialectName = "PostgreSQL"

// pipelineUsage is the help text of run's --pipeline flag.
const pipelineUsage = "batch transactions per shard in flight: 2 claims the next batch (without the aggregates in flight) while one is being published; 1: one at a time; 0: 2 in leader mode, 1 with shards"

// pgGate decides whether a batch transaction may claim: it takes the
// transaction-level lock of its shard and slot ($1 class, $2 shard) and,
// for a relay with no batch in flight ($3), checks that the other slot's
// key ($4 class) is free: a relay whose batch holds it is still working
// and the claim must not start beside it. Transaction-level locks keep this
// safe behind a transaction-mode pooler.
//
// A claim beside a batch in flight ($3 false) passes only while that batch
// (its transaction, $5: pg_locks' virtualtransaction) still holds the other
// key: had it committed meanwhile,
// another relay may have started, and this claim must be a fresh one.
const pgGate = `pg_try_advisory_xact_lock($1::int4, $2::int4) AND ($3::bool = NOT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.objsubid = 2 AND l.granted
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND l.classid::int8 = $4::int8 AND l.objid::int8 = $2::int8
      AND ($3::bool OR l.virtualtransaction = $5::text)))`

// The gate runs in its own statement and leaves its verdict in a
// transaction-local setting; the claim statement reads it (a one-time
// filter, before any row is read or locked). Two statements, because in READ
// COMMITTED the claim's snapshot is taken when its statement starts: had the
// claim taken the lock itself, its snapshot could predate the commit of the
// batch that held the lock a moment earlier, and it would miss that batch's
// failures (a refused message's next_attempt_at) and claim the rows behind
// them. A row is claimable when no earlier row of its aggregate is waiting
// for a retry (or is dead, in block mode), which keeps per-aggregate order
// across batches and relays, and when its aggregate is not in one of this
// relay's batches in flight ($5, keys from excludeKey; with plan_cache_mode
// force_custom_plan PostgreSQL hashes the array, where a generic plan would
// compare each row with every key). The retry lookup is cheap with the
// partial index
//
//	(outbox (aggregate_type, aggregate_id, seq) WHERE published_at IS NULL AND next_attempt_at IS NOT NULL).
//
// The gate statement also sets the batch transaction's planner settings
// ($6: plan_cache_mode). Sequential and bitmap scans are off: every
// statement of a batch reads rows by index, in seq order or by id, and
// with shards the planner underestimates how many rows the shard filter
// keeps and would read the whole table and sort it (100 ms a claim on
// 200,000 pending rows instead of 2 ms).
//
// Batch transactions commit asynchronously (synchronous_commit off): a
// batch's commit only records what the broker has already acked, so losing
// it in a database crash republishes those messages (a duplicate, as after
// a relay crash) or retries a refused one without counting the attempt,
// and loses nothing; WAL is flushed in order, so a later
// commit that survives implies this one did. The relay then does not wait
// for a WAL flush per batch, and the producers' commits do not queue
// behind the relay's flushes.
const (
	pgLockSQL = `SELECT set_config('outboxify.relay_gate', CASE WHEN ` + pgGate + ` THEN 'open' ELSE 'closed' END, true) = 'open',
  (SELECT virtualtransaction FROM pg_locks WHERE pid = pg_backend_pid() AND locktype = 'virtualxid')
FROM (SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true), set_config('plan_cache_mode', $6, true), set_config('synchronous_commit', 'off', true),
  set_config('idle_in_transaction_session_timeout', $7, true), set_config('tcp_keepalives_idle', $8, true),
  set_config('tcp_keepalives_interval', $9, true), set_config('tcp_keepalives_count', '3', true), set_config('tcp_user_timeout', $10, true)) planner`
	pgClaimSQL = `SELECT o.seq, o.id::text, o.aggregate_type, o.aggregate_id, o.event_type, o.payload, o.headers, o.attempts, o.created_at
FROM outbox o
WHERE current_setting('outboxify.relay_gate', true) = 'open'
  AND o.published_at IS NULL AND o.dead_at IS NULL AND o.blocked_at IS NULL
  AND (o.next_attempt_at IS NULL OR o.next_attempt_at <= now())
  AND ($1::int4 = 1 OR (hashtextextended(o.aggregate_id, 0) & 2147483647) % $1::int4 = $2::int4)
  AND NOT EXISTS (
    SELECT 1 FROM outbox b
    WHERE b.published_at IS NULL AND b.next_attempt_at IS NOT NULL
      AND b.aggregate_type = o.aggregate_type AND b.aggregate_id = o.aggregate_id AND b.seq < o.seq
      AND (b.next_attempt_at > now() OR (b.dead_at IS NOT NULL AND $4::bool)))
  AND octet_length(o.aggregate_type)::text || ':' || o.aggregate_type || o.aggregate_id <> ALL ($5::text[])
ORDER BY o.seq
LIMIT $3
FOR UPDATE OF o SKIP LOCKED`
	// Marks and failures find rows by primary key. A mark's ids travel as
	// one comma-separated text (no encoding work per element in pgx, which
	// encodes a []string as uuid[] through a failed attempt per element);
	// failures' as text[]. Times are clock_timestamp(), not now(): the
	// batch transaction began before the publish wait, and a retry is due a
	// backoff after the failure.
	pgMarkSQL = `UPDATE outbox SET published_at = clock_timestamp(), next_attempt_at = NULL WHERE id = ANY(string_to_array($1::text, ',')::uuid[])`
	pgFailSQL = `UPDATE outbox o SET
  attempts = o.attempts + CASE WHEN f.burn THEN 1 ELSE 0 END,
  last_error = f.err,
  next_attempt_at = clock_timestamp() + f.delay_us * interval '1 microsecond',
  dead_at = CASE WHEN f.dead THEN clock_timestamp() END
FROM unnest($1::text[]::uuid[], $2::bool[], $3::bool[], $4::int8[], $5::text[]) AS f(id, burn, dead, delay_us, err)
WHERE o.id = f.id`
)

// Rows held back behind a dead letter (block mode) leave the claim index:
// pgBlockSQL sets blocked_at on up to $4 claimable rows of the shard ($1
// modulus, $2 remainder, as the claim's) after seq $3 that have a dead
// letter earlier in their aggregate; pgUnblockSQL clears it on up to $2
// blocked rows after seq $3 that no dead letter holds any more (every
// blocked row, $1 false: the relay does not block). The claim still checks
// the dead letters itself (rows written behind one since the last block
// statement are in the index until the next), so blocked_at only keeps
// rows out of its path and never decides an order. The ids are collected
// first (ARRAY(...)): the update then reads by primary key.
const (
	pgBlockSQL = `UPDATE outbox SET blocked_at = clock_timestamp() WHERE id = ANY(ARRAY(
  SELECT o.id FROM outbox o
  WHERE o.published_at IS NULL AND o.dead_at IS NULL AND o.blocked_at IS NULL AND o.seq > $3::int8
    AND ($1::int4 = 1 OR (hashtextextended(o.aggregate_id, 0) & 2147483647) % $1::int4 = $2::int4)
    AND EXISTS (
      SELECT 1 FROM outbox b
      WHERE b.published_at IS NULL AND b.next_attempt_at IS NOT NULL AND b.dead_at IS NOT NULL
        AND b.aggregate_type = o.aggregate_type AND b.aggregate_id = o.aggregate_id AND b.seq < o.seq)
  ORDER BY o.seq LIMIT $4))
  AND published_at IS NULL AND dead_at IS NULL AND blocked_at IS NULL`
	pgUnblockSQL = `WITH u AS (
  UPDATE outbox SET blocked_at = NULL WHERE id = ANY(ARRAY(
    SELECT o.id FROM outbox o
    WHERE o.published_at IS NULL AND o.blocked_at IS NOT NULL AND o.seq > $3::int8
      AND NOT ($1::bool AND EXISTS (
        SELECT 1 FROM outbox b
        WHERE b.published_at IS NULL AND b.next_attempt_at IS NOT NULL AND b.dead_at IS NOT NULL
          AND b.aggregate_type = o.aggregate_type AND b.aggregate_id = o.aggregate_id AND b.seq < o.seq))
    ORDER BY o.seq LIMIT $2))
  AND blocked_at IS NOT NULL
  RETURNING seq)
SELECT count(*), COALESCE(max(seq), 0) FROM u`
	// pgClaimTopSQL is the highest seq in the claim index (read backwards).
	pgClaimTopSQL = `SELECT COALESCE(max(seq), 0) FROM outbox WHERE published_at IS NULL AND dead_at IS NULL AND blocked_at IS NULL`
)

func (s *pgStore) block(ctx context.Context, mod, rem int, from int64) (blocked, top int64, err error) {
	if err := s.pool.QueryRow(ctx, pgClaimTopSQL).Scan(&top); err != nil {
		return 0, 0, fmt.Errorf("block rows behind dead letters: %w", err)
	}
	for {
		tag, err := s.pool.Exec(ctx, pgBlockSQL, int32(mod), int32(rem), from, blockBatch)
		if err != nil {
			return blocked, top, fmt.Errorf("block rows behind dead letters: %w", err)
		}
		blocked += tag.RowsAffected()
		if tag.RowsAffected() < blockBatch {
			return blocked, top, nil
		}
	}
}

func (s *pgStore) unblock(ctx context.Context, blockMode bool) (int64, error) {
	var total, from int64
	for {
		var n int64
		if err := s.pool.QueryRow(ctx, pgUnblockSQL, blockMode, blockBatch, from).Scan(&n, &from); err != nil {
			return total, fmt.Errorf("release rows blocked behind dead letters: %w", err)
		}
		total += n
		if n < blockBatch {
			return total, nil
		}
	}
}

func (s *pgStore) claim(ctx context.Context, req claimRequest) (batchTx, []*Message, bool, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, nil, false, fmt.Errorf("acquire connection: %w", err)
	}
	// The batch is known to the gate by its transaction (pg_locks'
	// virtualtransaction, read by the lock statement), not by a backend
	// pid: behind a transaction-mode pooler the connection's PID is the
	// pooler's, and a server backend serves other clients' transactions
	// (another relay's) once this one commits.
	tx := &pgBatch{conn: conn}
	class, other := lockClasses[req.slot], lockClasses[1-req.slot]
	exclude := make([]string, len(req.exclude))
	for i, k := range req.exclude {
		exclude[i] = excludeKey(k)
	}
	// One round trip: BEGIN, the gate, the claim.
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	var pred string
	if p, ok := req.beside.(*pgBatch); ok {
		pred = p.vxid
	}
	planCache := "auto"
	if len(exclude) > 0 {
		planCache = "force_custom_plan"
	}
	idle, kaIdle, kaInterval, userTimeout := sessionBound(req.failover)
	b.Queue(pgLockSQL, class, int32(req.shard), req.beside == nil, int64(uint32(other)), pred, planCache, idle, kaIdle, kaInterval, userTimeout)
	mod, rem := req.hashFilter()
	b.Queue(pgClaimSQL, int32(mod), int32(rem), req.limit, req.blockOnDead, exclude)
	br := conn.SendBatch(ctx, b)
	msgs, held, err := readClaim(br, &tx.vxid)
	if cerr := br.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		tx.rollback()
		return nil, nil, false, err
	}
	if !held || len(msgs) == 0 {
		tx.rollback() // releases the lock at once
		return nil, nil, held, nil
	}
	return tx, msgs, true, nil
}

// sessionBound turns Options.Failover into the batch session's settings
// (SET LOCAL through set_config, which PgBouncer passes on, unlike startup
// options): the server ends the session when it has been idle in the
// transaction for the whole bound (a frozen relay), and TCP keepalives and
// tcp_user_timeout notice a host that vanished within half of it. They last
// until the batch commits or rolls back. Values are milliseconds and
// seconds as text.
func sessionBound(failover time.Duration) (idle, kaIdle, kaInterval, userTimeout string) {
	sec := func(d time.Duration) string { return strconv.Itoa(max(1, int(d/time.Second))) }
	return strconv.FormatInt(failover.Milliseconds(), 10), sec(failover / 4), sec(failover / 12),
		strconv.FormatInt((failover / 2).Milliseconds(), 10)
}

// excludeKey matches the claim's key of an aggregate: the type's length in
// bytes, a colon, the type, the id (unambiguous for any type and id).
func excludeKey(k aggregateKey) string {
	return strconv.Itoa(len(k.typ)) + ":" + k.typ + k.id
}

func readClaim(br pgx.BatchResults, vxid *string) ([]*Message, bool, error) {
	if _, err := br.Exec(); err != nil {
		return nil, false, fmt.Errorf("begin: %w", err)
	}
	var held bool
	if err := br.QueryRow().Scan(&held, vxid); err != nil {
		return nil, false, fmt.Errorf("relay lock: %w", err)
	}
	rows, err := br.Query()
	if err != nil {
		return nil, held, fmt.Errorf("claim rows: %w", err)
	}
	defer rows.Close()
	// The text columns and payloads are scanned as DriverBytes (pgx's read
	// buffer, valid until the next row) and copied into memory shared by the
	// batch: one string per row for the four text columns, slabs for the
	// payloads and the messages. A separate allocation per column and row
	// was a visible share of the relay's CPU. The slabs grow with the batch
	// (8 messages, 1 KiB first, doubling): a claim of one row on a
	// notification must not allocate for a full batch.
	var (
		msgs                                     []*Message
		slab                                     []Message
		payloads, scratch                        []byte
		id, typ, aggID, evType, payload, headers pgtype.DriverBytes
	)
	for rows.Next() {
		if len(slab) == cap(slab) {
			slab = make([]Message, 0, min(256, max(8, len(msgs))))
		}
		slab = append(slab, Message{})
		m := &slab[len(slab)-1]
		if err := rows.Scan(&m.Seq, &id, &typ, &aggID, &evType, &payload, &headers, &m.Attempts, &m.CreatedAt); err != nil {
			return nil, held, fmt.Errorf("scan claimed row: %w", err)
		}
		scratch = append(append(append(append(scratch[:0], id...), typ...), aggID...), evType...)
		text := string(scratch)
		a, b, c := len(id), len(id)+len(typ), len(id)+len(typ)+len(aggID)
		m.ID, m.AggregateType, m.AggregateID, m.EventType = text[:a], text[a:b], text[b:c], text[c:]
		if cap(payloads)-len(payloads) < len(payload) {
			payloads = make([]byte, 0, max(len(payload), min(64<<10, max(1<<10, 2*cap(payloads)))))
		}
		start := len(payloads)
		payloads = append(payloads, payload...)
		// A row that cannot be decoded is not published; it counts as rejected.
		m.decodeErr = decodeRow(m, payloads[start:len(payloads):len(payloads)], headers)
		msgs = append(msgs, m)
	}
	if err := rows.Err(); err != nil {
		return nil, held, fmt.Errorf("claim rows: %w", err)
	}
	return msgs, held, nil
}

// pgBatch is an open batch transaction on one pooled connection.
type pgBatch struct {
	conn *pgxpool.Conn
	vxid string // its transaction in pg_locks, for the gate of a claim beside it
}

func (t *pgBatch) complete(ctx context.Context, published []*Message, failures []failure) error {
	b := &pgx.Batch{}
	if len(published) > 0 {
		var ids strings.Builder
		ids.Grow(len(published) * (len(published[0].ID) + 1))
		for i, m := range published {
			if i > 0 {
				ids.WriteByte(',')
			}
			ids.WriteString(m.ID)
		}
		b.Queue(pgMarkSQL, ids.String())
	}
	if len(failures) > 0 {
		ids := make([]string, len(failures))
		burn := make([]bool, len(failures))
		dead := make([]bool, len(failures))
		delay := make([]int64, len(failures))
		errs := make([]string, len(failures))
		for i, f := range failures {
			ids[i], burn[i], dead[i], delay[i], errs[i] = f.msg.ID, f.burn, f.dead, f.delay.Microseconds(), f.err
		}
		b.Queue(pgFailSQL, ids, burn, dead, delay, errs)
	}
	b.Queue("COMMIT")
	// Mark, record failures and commit in one round trip.
	br := t.conn.SendBatch(ctx, b)
	var err error
	for i := 0; i < b.Len() && err == nil; i++ {
		var tag pgconn.CommandTag
		tag, err = br.Exec()
		if err == nil && i == b.Len()-1 && tag.String() != "COMMIT" {
			err = fmt.Errorf("commit: transaction ended with %s", tag)
		}
	}
	if cerr := br.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		t.rollback()
		return err
	}
	t.conn.Release()
	t.conn = nil
	return nil
}

func (t *pgBatch) rollback() {
	if t.conn == nil {
		return
	}
	if t.conn.Conn().PgConn().TxStatus() != 'I' {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		// On failure the pool discards the connection; the server then rolls back.
		_, _ = t.conn.Exec(ctx, "ROLLBACK")
		cancel()
	}
	t.conn.Release()
	t.conn = nil
}

func (s *pgStore) listen(ctx context.Context, wake func(), selfTest time.Duration, log *slog.Logger) (bool, *idleGate) {
	conn, err := s.listenConn(ctx)
	if err != nil {
		log.Warn("LISTEN failed; polling instead", "channel", NotifyChannel, "err", err)
		return false, nil
	}
	// Self-test: NOTIFY through the pool and wait for it on the LISTEN
	// connection. A transaction-mode pooler accepts LISTEN and never
	// delivers; then polling is all that works.
	token := make([]byte, 8)
	_, _ = rand.Read(token)
	payload := "outboxify-selftest:" + hex.EncodeToString(token)
	if _, err := s.pool.Exec(ctx, "SELECT pg_notify($1, $2)", NotifyChannel, payload); err != nil {
		log.Warn("NOTIFY self-test could not send; polling instead", "err", err)
		_ = conn.Close(context.Background())
		return false, nil
	}
	tctx, cancel := context.WithTimeout(ctx, selfTest)
	defer cancel()
	for {
		n, err := conn.WaitForNotification(tctx)
		if err != nil {
			log.Warn("NOTIFY self-test failed: the relay's own notification did not arrive (is a transaction-mode pooler such as PgBouncer between the relay and PostgreSQL?); polling instead",
				"channel", NotifyChannel, "waited", selfTest, "err", err)
			_ = conn.Close(context.Background())
			return false, nil
		}
		if n.Payload == payload {
			break
		}
	}
	log.Info("LISTEN/NOTIFY self-test passed", "channel", NotifyChannel)
	go s.listenLoop(ctx, conn, wake, log)
	gate := newIdleGate()
	go s.holdIdleLock(ctx, gate, wake, log)
	return true, gate
}

// holdIdleLock holds the idle lock (idleLockClass, 0) on a session of its
// own while gate wants it: the insert trigger (schema 4) notifies only then.
// pg_advisory_lock waits for the producers holding it shared (they skipped
// the NOTIFY) to commit, and while it waits their new tries fail, so they
// notify. While held, the session is watched (WaitForNotification returns
// when it ends): a lost session releases the lock on the server, so the
// leaders are woken to claim and take it again.
func (s *pgStore) holdIdleLock(ctx context.Context, gate *idleGate, wake func(), log *slog.Logger) {
	var conn *pgx.Conn
	held := false
	drop := func() {
		if conn != nil {
			_ = conn.Close(context.Background())
			conn = nil
		}
		if held {
			held = false
			gate.setHeld(false)
		}
	}
	defer drop()
	for attempt := 1; ctx.Err() == nil; {
		if !gate.wanted() {
			if held && gate.release() {
				held = false
				if _, err := conn.Exec(ctx, "SELECT pg_advisory_unlock($1::int4, 0)", idleLockClass); err != nil {
					drop() // the session's end releases it
				}
				continue
			}
			if held {
				continue // a leader entered meanwhile
			}
			select {
			case <-ctx.Done():
			case <-gate.changed:
			}
			continue
		}
		if !held {
			if conn == nil {
				c, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
				if err != nil {
					retryPause(ctx, &attempt, log, "idle lock session: connect failed; leaders poll every second meanwhile", err)
					continue
				}
				conn = c
			}
			if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1::int4, 0)", idleLockClass); err != nil {
				if ctx.Err() != nil {
					return
				}
				drop()
				retryPause(ctx, &attempt, log, "idle lock: could not take it; leaders poll every second meanwhile", err)
				continue
			}
			attempt = 1
			held = true
			gate.setHeld(true)
			continue
		}
		// Held and wanted: watch the session until it ends or the leaders
		// stop waiting. A deadline interrupts the wait without closing the
		// connection.
		wctx, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-gate.changed:
				if wctx.Err() != nil {
					gate.signal() // the wait had ended: the loop reads it
				}
				cancel()
			case <-wctx.Done():
			}
		}()
		_, err := conn.WaitForNotification(wctx)
		interrupted := wctx.Err() != nil
		cancel()
		if ctx.Err() != nil {
			return
		}
		if (err != nil && !interrupted) || conn.IsClosed() {
			log.Warn("idle lock session lost; taking the lock again", "err", err)
			drop()
			wake() // producers may have skipped the NOTIFY since the loss
		}
	}
}

func (s *pgStore) listenConn(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{NotifyChannel}.Sanitize()); err != nil {
		_ = conn.Close(context.Background())
		return nil, err
	}
	return conn, nil
}

// retryPause logs err and sleeps the next step of a 1s-30s backoff.
func retryPause(ctx context.Context, attempt *int, log *slog.Logger, msg string, err error) {
	d := backoff(time.Second, 30*time.Second, *attempt)
	*attempt++
	log.Warn(msg, "err", err, "retry_in", d)
	sleep(ctx, d)
}

// listenLoop wakes the relay on every notification and reconnects when the
// LISTEN connection drops (polling covers the gap).
func (s *pgStore) listenLoop(ctx context.Context, conn *pgx.Conn, wake func(), log *slog.Logger) {
	defer func() {
		if conn != nil {
			_ = conn.Close(context.Background())
		}
	}()
	for attempt := 1; ; {
		if conn == nil {
			var err error
			if conn, err = s.listenConn(ctx); err != nil {
				if ctx.Err() != nil {
					return
				}
				retryPause(ctx, &attempt, log, "LISTEN reconnect failed; polling meanwhile", err)
				continue
			}
			attempt = 1
			log.Info("LISTEN connection restored", "channel", NotifyChannel)
			wake() // notifications may have been missed
		}
		if _, err := conn.WaitForNotification(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Warn("LISTEN connection lost; polling until it is back", "err", err)
			_ = conn.Close(context.Background())
			conn = nil
			wake()
			continue
		}
		wake()
	}
}

// Stats reads the pending rows through the claim index and the blocked
// index, and the dead letters through the retrying index: the relay always sets
// next_attempt_at when it dead-letters a row (block mode finds them there
// too). A single WHERE published_at IS NULL would match neither partial
// index since dead letters left the claim index (schema 2), and read the
// whole table, published rows included. Rows blocked behind a dead letter
// (blocked_at, schema 3) count as pending.
const pgStatsSQL = `SELECT p.pending + k.blocked, p.retrying, d.dead, k.blocked,
  COALESCE(EXTRACT(EPOCH FROM now() - LEAST(p.oldest, k.oldest)), 0)::float8
FROM (SELECT count(*) AS pending, count(*) FILTER (WHERE next_attempt_at IS NOT NULL) AS retrying, min(created_at) AS oldest
  FROM outbox WHERE published_at IS NULL AND dead_at IS NULL AND blocked_at IS NULL) p,
 (SELECT count(*) AS blocked, min(created_at) AS oldest FROM outbox WHERE published_at IS NULL AND blocked_at IS NOT NULL) k,
 (SELECT count(*) AS dead FROM outbox WHERE published_at IS NULL AND next_attempt_at IS NOT NULL AND dead_at IS NOT NULL) d`

func (s *pgStore) stats(ctx context.Context) (Stats, error) {
	var st Stats
	var age float64
	err := s.pool.QueryRow(ctx, pgStatsSQL).Scan(&st.Pending, &st.Retrying, &st.DeadLetters, &st.Blocked, &age)
	st.OldestPendingAge = time.Duration(age * float64(time.Second))
	return st, err
}

// Cleanup deletes by primary key, BatchSize rows per statement (short
// transactions), the rows published before the cutoff, oldest first (the
// migration's partial index on published_at finds them), then inbox rows
// received before the inbox cutoff (index on received_at).
const pgCleanupSQL = `WITH d AS (
  DELETE FROM outbox WHERE id IN (
    SELECT id FROM outbox WHERE published_at < now() - $1 * interval '1 microsecond' ORDER BY published_at LIMIT $2)
    AND published_at < now() - $1 * interval '1 microsecond' -- rechecked on rows a replay changed meanwhile
  RETURNING 1)
SELECT count(*) FROM d`

func (s *pgStore) cleanup(ctx context.Context, o CleanupOptions, log *slog.Logger) (CleanupResult, error) {
	o = o.withDefaults()
	var res CleanupResult
	for {
		var n int64
		if err := s.pool.QueryRow(ctx, pgCleanupSQL, o.Retention.Microseconds(), o.BatchSize).Scan(&n); err != nil {
			return res, fmt.Errorf("delete published outbox rows: %w", err)
		}
		res.OutboxDeleted += n
		if n < int64(o.BatchSize) {
			break
		}
	}
	if o.InboxRetention < 0 {
		return res, nil
	}
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, o.InboxTable).Scan(&exists); err != nil {
		return res, fmt.Errorf("look for inbox table %s: %w", o.InboxTable, err)
	}
	if !exists {
		if log != nil {
			log.Info("no inbox table; inbox pruning skipped", "table", o.InboxTable)
		}
		return res, nil
	}
	inbox := pgx.Identifier{o.InboxTable}.Sanitize()
	prune := `WITH d AS (
  DELETE FROM ` + inbox + ` WHERE (consumer, message_id) IN (
    SELECT consumer, message_id FROM ` + inbox + ` WHERE received_at < now() - $1 * interval '1 microsecond' ORDER BY received_at LIMIT $2)
    AND received_at < now() - $1 * interval '1 microsecond'
  RETURNING 1)
SELECT count(*) FROM d`
	for {
		var n int64
		if err := s.pool.QueryRow(ctx, prune, o.InboxRetention.Microseconds(), o.BatchSize).Scan(&n); err != nil {
			return res, fmt.Errorf("prune inbox %s: %w", o.InboxTable, err)
		}
		res.InboxDeleted += n
		if n < int64(o.BatchSize) {
			return res, nil
		}
	}
}

func (s *pgStore) replay(ctx context.Context, f ReplayFilter, apply bool) (int64, error) {
	where, args := f.where(sqlDialect{
		ph:    func(n int) string { return fmt.Sprintf("$%d", n) },
		ts:    func(ph string) string { return ph + "::timestamptz" },
		tsArg: func(t time.Time) any { return t },
	})
	if !apply {
		var n int64
		err := s.pool.QueryRow(ctx, `SELECT count(*) FROM outbox WHERE `+where, args...).Scan(&n)
		return n, err
	}
	tag, err := s.pool.Exec(ctx, `UPDATE outbox SET published_at = NULL, dead_at = NULL, blocked_at = NULL, attempts = 0, last_error = NULL, next_attempt_at = NULL WHERE `+where, args...)
	if err != nil {
		return 0, err
	}
	// The rows blocked behind a replayed dead letter go back into the claim
	// index (those still behind another dead letter stay blocked).
	if _, err := s.unblock(ctx, true); err != nil {
		return tag.RowsAffected(), err
	}
	return tag.RowsAffected(), nil
}
