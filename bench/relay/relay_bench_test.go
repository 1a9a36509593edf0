package relaybench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"maps"
	"math"
	mrand "math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wmnats "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	wmsql "github.com/ThreeDotsLabs/watermill-sql/v4/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/components/forwarder"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	dto "github.com/prometheus/client_model/go"

	"github.com/outboxify/outboxify/bench/relay/outboxrelay"
	"github.com/outboxify/outboxify/internal/testenv"
	"github.com/outboxify/outboxify/templates"
)

var (
	flagMsgs          = flag.Int("msgs", 200_000, "messages per throughput run")
	flagAggregates    = flag.Int("aggregates", 1000, "aggregates the messages are spread over")
	flagWatermillMsgs = flag.Int("watermill-msgs", 200_000, "messages for the watermill forwarder runs (the same table size as the others by default; watermill is faster on a smaller table)")
	flagResults       = flag.String("results", "", "write the throughput table with ratios (markdown) to this file")
	flagDebounce      = flag.Duration("notify-debounce", 0, "NotifyDebounce of the generated relay in the latency runs (0: the relay's default)")
	flagBatch         = flag.Int("batch", 2000, "batch size of the generated relay in the throughput runs")
	flagPipeline      = flag.Int("pipeline", 0, "batch transactions in flight per shard of the generated relay in the throughput runs (0: the relay's default)")
	flagLatencyFor    = flag.Duration("latency-for", 10*time.Second, "how long the 1,000 msg/s latency runs produce")
	flagRate          = flag.Int("rate", 1000, "messages per second in the latency runs")
)

// ---- environment ----

type env struct {
	pool   *pgxpool.Pool // producers, fills, checks
	relay  *pgxpool.Pool // the relay under test (its own pool, as in its own process)
	trips  *tripCounter  // round trips on the relay's pool
	url    string
	nc     *nats.Conn
	js     jetstream.JetStream
	stream string
	prefix string
	start  time.Time   // the throughput clock; a run that loads its own rows restarts it
	cpu    cpuSnapshot // CPU use at start, taken again with the clock
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// newID returns a time-ordered UUIDv7, the id the generated writer gives
// every outbox row (its index inserts land near each other, unlike random
// UUIDv4 ids).
func newID() string { return uuid.Must(uuid.NewV7()).String() }

// newEnv creates a fresh database with the generated migration and a fresh
// JetStream stream (file storage) for subjects <prefix>.>.
func newEnv(b *testing.B) *env {
	b.Helper()
	url := testenv.PostgresDB(b)
	ctx := context.Background()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		b.Fatal(err)
	}
	cfg.MaxConns = 8
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	rcfg := cfg.Copy()
	rcfg.MaxConns = 4
	trips := &tripCounter{}
	rcfg.ConnConfig.Tracer = trips
	relayPool, err := pgxpool.NewWithConfig(ctx, rcfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(relayPool.Close)
	files, err := templates.Render(templates.Config{Module: "bench", DB: "postgres", Migrations: "sql"}, "migrations")
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".sql") && !strings.HasSuffix(f.Path, ".down.sql") {
			if _, err := pool.Exec(ctx, string(f.Content)); err != nil {
				b.Fatalf("migration: %v", err)
			}
		}
	}
	nc, err := nats.Connect(testenv.Require(b, testenv.NATS))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(nc.Close)
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		b.Fatal(err)
	}
	e := &env{pool: pool, relay: relayPool, trips: trips, url: url, nc: nc, js: js, stream: "BENCH_" + strings.ToUpper(randHex(4)), prefix: "bench" + randHex(4)}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: e.stream, Subjects: []string{e.prefix + ".>"}}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = js.DeleteStream(context.Background(), e.stream) })
	return e
}

// tripCounter counts the relay pool's round trips: one per statement sent
// alone (BEGIN and COMMIT included), one per pipelined batch.
type tripCounter struct{ n atomic.Int64 }

func (t *tripCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	t.n.Add(1)
	return ctx
}
func (t *tripCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (t *tripCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	t.n.Add(1)
	return ctx
}
func (t *tripCounter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (t *tripCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

func (e *env) subject() string { return e.prefix + ".orders" }

// fill inserts n outbox rows over the aggregates with COPY (not timed).
func (e *env) fill(b *testing.B, n int) {
	b.Helper()
	ctx := context.Background()
	next := make([]int, *flagAggregates)
	rows := make([][]any, n)
	for i := range rows {
		a := mrand.IntN(*flagAggregates)
		next[a]++
		rows[i] = []any{newID(), e.subject(), fmt.Sprintf("agg-%d", a), "order.created",
			fmt.Sprintf(`{"agg": "agg-%d", "n": %d, "note": "a payload of about a hundred bytes, like a small domain event"}`, a, next[a]), "{}"}
	}
	_, err := e.pool.CopyFrom(ctx, pgx.Identifier{"outbox"},
		[]string{"id", "aggregate_type", "aggregate_id", "event_type", "payload", "headers"}, pgx.CopyFromRows(rows))
	if err != nil {
		b.Fatalf("fill: %v", err)
	}
	if _, err := e.pool.Exec(ctx, "VACUUM ANALYZE outbox"); err != nil {
		b.Fatal(err)
	}
}

func (e *env) streamCount(b *testing.B) uint64 {
	s, err := e.js.Stream(context.Background(), e.stream)
	if err != nil {
		b.Fatal(err)
	}
	info, err := s.Info(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	return info.State.Msgs
}

func (e *env) unpublished(b *testing.B) int {
	var n int
	if err := e.pool.QueryRow(context.Background(), "SELECT count(*) FROM outbox WHERE published_at IS NULL").Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// ---- throughput ----

type system struct {
	name string
	msgs func() int
	run  func(b *testing.B, e *env) // runs until every message is through
}

// BenchmarkThroughput: 200,000 messages over 1,000 aggregates, PostgreSQL ->
// JetStream, each system from a full table (or, for raw-jetstream, from
// memory) until every message is through. Reports msgs/s.
func BenchmarkThroughput(b *testing.B) {
	all := func() int { return *flagMsgs }
	rates := map[string]float64{}
	systems := []system{
		{"raw-claim-mark-500", all, func(b *testing.B, e *env) { rawClaimMark(b, e, 500) }},
		{"raw-jetstream-async", all, rawJetStream},
		{"plain-relay-500", all, func(b *testing.B, e *env) { plainRelay(b, e, 500, nil) }},
		{"outbox-relay-leader", all, func(b *testing.B, e *env) { ourRelay(b, e, 1, *flagBatch) }},
		{"outbox-relay-2-shards", all, func(b *testing.B, e *env) { ourRelay(b, e, 2, *flagBatch) }},
		{"watermill-forwarder-100", func() int { return *flagWatermillMsgs }, func(b *testing.B, e *env) { watermillForwarder(b, e, 100) }},
		{"watermill-forwarder-500", func() int { return *flagWatermillMsgs }, func(b *testing.B, e *env) { watermillForwarder(b, e, 500) }},
	}
	for _, s := range systems {
		b.Run(s.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e := newEnv(b)
				n := s.msgs()
				if s.name != "raw-jetstream-async" && !strings.HasPrefix(s.name, "watermill") {
					e.fill(b, n)
				}
				b.StartTimer()
				e.start = time.Now()
				e.cpu = takeCPU()
				s.run(b, e)
				elapsed := time.Since(e.start)
				b.StopTimer()
				reportCPU(b, e.cpu, n)
				rate := float64(n) / elapsed.Seconds()
				b.ReportMetric(rate, "msgs/s")
				b.ReportMetric(0, "ns/op")
				rates[s.name] = rate
			}
		})
	}
	writeRatios(b, rates)
}

// writeRatios prints, and writes to -results when set, every system's rate
// against the plain relay, watermill and the slower raw limit of the same
// run (the comparisons the goals are stated in).
func writeRatios(b *testing.B, rates map[string]float64) {
	rawLimit := min(rates["raw-claim-mark-500"], rates["raw-jetstream-async"])
	var out strings.Builder
	fmt.Fprintf(&out, "| system | msgs/s | vs plain-relay-500 | vs watermill-forwarder-100 | vs watermill-forwarder-500 | of the slower raw limit |\n|---|---:|---:|---:|---:|---:|\n")
	ratio := func(v float64, base string) string {
		if rates[base] == 0 {
			return ""
		}
		return fmt.Sprintf("%.2fx", v/rates[base])
	}
	for _, name := range slices.Sorted(maps.Keys(rates)) {
		v := rates[name]
		limit := ""
		if rawLimit > 0 {
			limit = fmt.Sprintf("%.0f%%", v/rawLimit*100)
		}
		fmt.Fprintf(&out, "| %s | %.0f | %s | %s | %s | %s |\n", name, v,
			ratio(v, "plain-relay-500"), ratio(v, "watermill-forwarder-100"), ratio(v, "watermill-forwarder-500"), limit)
	}
	b.Logf("throughput in this run:\n%s", out.String())
	if *flagResults != "" {
		if err := os.WriteFile(*flagResults, []byte(out.String()), 0o644); err != nil {
			b.Errorf("write results: %v", err)
		}
	}
}

// rawClaimMark is the database limit: claim and mark with no broker.
func rawClaimMark(b *testing.B, e *env, batch int) {
	ctx := context.Background()
	for {
		tx, err := e.relay.Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		rows, err := tx.Query(ctx, `SELECT id FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`, batch)
		if err != nil {
			b.Fatal(err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			b.Fatal(err)
		}
		if len(ids) == 0 {
			_ = tx.Rollback(ctx)
			return
		}
		if _, err := tx.Exec(ctx, `UPDATE outbox SET published_at = now() WHERE id = ANY($1::uuid[])`, ids); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// rawJetStream is the broker limit: async publishes with no database.
func rawJetStream(b *testing.B, e *env) {
	for i := 0; i < *flagMsgs; i++ {
		m := nats.NewMsg(e.subject())
		m.Data = []byte(fmt.Sprintf(`{"agg": "agg-%d", "n": %d, "note": "a payload of about a hundred bytes, like a small domain event"}`, i%*flagAggregates, i))
		m.Header.Set("Nats-Msg-Id", newID())
		for {
			_, err := e.js.PublishMsgAsync(m)
			if err == nil {
				break
			}
			if !errors.Is(err, jetstream.ErrTooManyStalledMsgs) {
				b.Fatal(err)
			}
			<-e.js.PublishAsyncComplete() // the server is behind: let the acks catch up
		}
	}
	select {
	case <-e.js.PublishAsyncComplete():
	case <-time.After(2 * time.Minute):
		b.Fatal("acks did not arrive")
	}
	if got := e.streamCount(b); got != uint64(*flagMsgs) {
		b.Fatalf("stream has %d messages", got)
	}
}

// plainRelay is what a team writes first: claim a batch with SKIP LOCKED,
// publish async, wait for the acks, mark by id, commit; no per-aggregate
// care. With wake != nil it waits for a wake-up when the table is empty
// (the plain NOTIFY relay of the latency runs) instead of returning.
func plainRelay(b *testing.B, e *env, batch int, wake <-chan struct{}) {
	ctx := context.Background()
	for {
		tx, err := e.relay.Begin(ctx)
		if err != nil {
			b.Fatal(err)
		}
		rows, err := tx.Query(ctx, `SELECT id::text, aggregate_id, payload FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`, batch)
		if err != nil {
			b.Fatal(err)
		}
		var ids []string
		var acks []jetstream.PubAckFuture
		for rows.Next() {
			var id, agg string
			var payload []byte
			if err := rows.Scan(&id, &agg, &payload); err != nil {
				b.Fatal(err)
			}
			m := nats.NewMsg(e.subject())
			m.Data = payload
			m.Header.Set("Nats-Msg-Id", id)
			m.Header.Set("outbox-id", id)
			m.Header.Set("aggregate-id", agg)
			f, err := e.js.PublishMsgAsync(m)
			if err != nil {
				b.Fatal(err)
			}
			ids = append(ids, id)
			acks = append(acks, f)
		}
		if rows.Err() != nil {
			b.Fatal(rows.Err())
		}
		if len(ids) == 0 {
			_ = tx.Rollback(ctx)
			if wake == nil {
				return
			}
			if _, ok := <-wake; !ok {
				return
			}
			continue
		}
		for _, f := range acks {
			select {
			case <-f.Ok():
			case err := <-f.Err():
				b.Fatal(err)
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE outbox SET published_at = now() WHERE id = ANY($1::uuid[])`, ids); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func counterValue(c interface{ Write(*dto.Metric) error }) float64 {
	var m dto.Metric
	_ = c.Write(&m)
	return m.GetCounter().GetValue()
}

// timedPublisher measures the time spent publishing (waves and acks), so
// that the rest of the wall time is the database's.
type timedPublisher struct {
	outboxrelay.Publisher
	busy  atomic.Int64 // ns inside Publish
	waves atomic.Int64
}

func (p *timedPublisher) Publish(ctx context.Context, msgs []*outboxrelay.Message) []error {
	start := time.Now()
	defer func() { p.busy.Add(int64(time.Since(start))); p.waves.Add(1) }()
	return p.Publisher.Publish(ctx, msgs)
}

// ourRelay runs the generated relay until every row is published.
func ourRelay(b *testing.B, e *env, shards, batch int) {
	js, err := outboxrelay.NewJetStreamPublisher(e.nc)
	if err != nil {
		b.Fatal(err)
	}
	pub := &timedPublisher{Publisher: js}
	start := time.Now()
	defer func() {
		wall := time.Since(start)
		b.ReportMetric(float64(pub.busy.Load())/float64(wall)/float64(shards)*100, "%publishing")
		b.ReportMetric(float64(pub.waves.Load()), "waves")
	}()
	m := outboxrelay.NewMetrics()
	r, err := outboxrelay.New(outboxrelay.FromPool(e.relay), pub, outboxrelay.Options{
		BatchSize: batch, Shards: shards, Pipeline: *flagPipeline, Notify: "off", PollInterval: 5 * time.Millisecond, Logger: quiet(), Metrics: m})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = r.Run(ctx); close(done) }()
	deadline := time.Now().Add(10 * time.Minute)
	for counterValue(m.Published) < float64(*flagMsgs) {
		if time.Now().After(deadline) {
			b.Fatal("relay did not finish")
		}
		time.Sleep(2 * time.Millisecond)
	}
	cancel()
	<-done
}

// watermillForwarder: messages published through watermill's forwarder
// into watermill-sql (PostgreSQL) beforehand; the forwarder moves them to
// JetStream (watermill-nats, synchronous JetStream publish, msg id tracked)
// with SubscribeBatchSize = batch.
func watermillForwarder(b *testing.B, e *env, batch int) {
	b.StopTimer()
	ctx := context.Background()
	logger := watermill.NopLogger{}
	db := wmsql.BeginnerFromPgx(e.pool)
	schema := wmsql.DefaultPostgreSQLSchema{SubscribeBatchSize: batch}
	sqlPub, err := wmsql.NewPublisher(db, wmsql.PublisherConfig{SchemaAdapter: schema, AutoInitializeSchema: true}, logger)
	if err != nil {
		b.Fatal(err)
	}
	fwdPub := forwarder.NewPublisher(sqlPub, forwarder.PublisherConfig{ForwarderTopic: "outbox_forwarder"})
	n := *flagWatermillMsgs
	for i := 0; i < n; i += 1000 {
		var msgs []*message.Message
		for j := i; j < i+1000 && j < n; j++ {
			msgs = append(msgs, message.NewMessage(watermill.NewUUID(),
				[]byte(fmt.Sprintf(`{"agg": "agg-%d", "n": %d, "note": "a payload of about a hundred bytes, like a small domain event"}`, j%*flagAggregates, j))))
		}
		if err := fwdPub.Publish(e.subject(), msgs...); err != nil {
			b.Fatal(err)
		}
	}
	sub, err := wmsql.NewSubscriber(db, wmsql.SubscriberConfig{SchemaAdapter: schema, OffsetsAdapter: wmsql.DefaultPostgreSQLOffsetsAdapter{},
		InitializeSchema: true, PollInterval: 10 * time.Millisecond}, logger)
	if err != nil {
		b.Fatal(err)
	}
	natsPub, err := wmnats.NewPublisherWithNatsConn(e.nc, wmnats.PublisherPublishConfig{
		Marshaler: &wmnats.NATSMarshaler{}, SubjectCalculator: wmnats.DefaultSubjectCalculator,
		JetStream: wmnats.JetStreamConfig{TrackMsgId: true}}, logger)
	if err != nil {
		b.Fatal(err)
	}
	fwd, err := forwarder.NewForwarder(sub, natsPub, logger, forwarder.Config{ForwarderTopic: "outbox_forwarder"})
	if err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	e.start = time.Now() // loading watermill's rows is not forwarding them
	e.cpu = takeCPU()
	go func() { _ = fwd.Run(ctx) }()
	deadline := time.Now().Add(15 * time.Minute)
	for e.streamCount(b) < uint64(n) {
		if time.Now().After(deadline) {
			b.Fatal("forwarder did not finish")
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.StopTimer()
	_ = fwd.Close()
}

// ---- latency ----

// BenchmarkLatency: producers commit 1,000 outbox rows per second (each in
// its own transaction with the writer's per-aggregate lock) for
// -latency-for; a JetStream consumer measures commit-to-receive. Reports p50
// and p99, and the producers' commit p99 beside them.
func BenchmarkLatency(b *testing.B) {
	modes := []struct {
		name string
		run  func(ctx context.Context, b *testing.B, e *env)
	}{
		{"outbox-relay-notify", func(ctx context.Context, b *testing.B, e *env) {
			runOurs(ctx, b, e, "auto", 500*time.Millisecond, *flagDebounce)
		}},
		{"outbox-relay-poll-50ms", func(ctx context.Context, b *testing.B, e *env) { runOurs(ctx, b, e, "off", 50*time.Millisecond, 0) }},
		{"plain-notify-relay", runPlainNotify},
	}
	for _, mode := range modes {
		b.Run(mode.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				e := newEnv(b)
				ctx, cancel := context.WithCancel(context.Background())
				relayDone := make(chan struct{})
				go func() { mode.run(ctx, b, e); close(relayDone) }()
				time.Sleep(500 * time.Millisecond) // LISTEN + self-test
				before, trips := takeCPU(), e.trips.n.Load()
				lat, commits := produceAndMeasure(b, e)
				b.ReportMetric(float64(e.trips.n.Load()-trips)/float64(len(lat)), "relay-trips/msg")
				// CPU of producers and relay together (the producers' share is the
				// same in every mode).
				reportCPU(b, before, len(lat))
				cancel()
				<-relayDone
				b.ReportMetric(pct(lat, 50), "p50-ms")
				b.ReportMetric(pct(lat, 99), "p99-ms")
				b.ReportMetric(pct(commits, 99), "commit-p99-ms")
				b.ReportMetric(float64(len(lat)), "msgs")
				b.ReportMetric(0, "ns/op")
			}
		})
	}
}

func runOurs(ctx context.Context, b *testing.B, e *env, notify string, poll, debounce time.Duration) {
	pub, err := outboxrelay.NewJetStreamPublisher(e.nc)
	if err != nil {
		b.Error(err)
		return
	}
	r, err := outboxrelay.New(outboxrelay.FromPool(e.relay), pub, outboxrelay.Options{
		Notify: notify, PollInterval: poll, NotifyDebounce: debounce, Logger: quiet()})
	if err != nil {
		b.Error(err)
		return
	}
	_ = r.Run(ctx)
}

// runPlainNotify is the naive NOTIFY relay: LISTEN, and run a plain batch on
// every notification.
func runPlainNotify(ctx context.Context, b *testing.B, e *env) {
	conn, err := pgx.Connect(ctx, e.url)
	if err != nil {
		b.Error(err)
		return
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN outbox"); err != nil {
		b.Error(err)
		return
	}
	// The plain relay wants a NOTIFY for every insert, as the trigger sent
	// before schema 4: holding the idle lock for good makes every insert
	// notify (the schema-4 trigger notifies while a relay holds it).
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1::int4, 0)", int32(crc32.ChecksumIEEE([]byte("outboxify.relay.idle.outbox")))); err != nil {
		b.Error(err)
		return
	}
	wake := make(chan struct{}, 1)
	go func() {
		defer close(wake)
		for {
			if _, err := conn.WaitForNotification(ctx); err != nil {
				return
			}
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	}()
	plainRelay(b, e, 500, wake)
}

func pct(ms []float64, p float64) float64 {
	if len(ms) == 0 {
		return math.NaN()
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p/100))]
}

// produceAndMeasure produces at -rate for -latency-for and returns the
// commit-to-receive latencies and the producers' transaction durations, in ms.
func produceAndMeasure(b *testing.B, e *env) (latencies, commits []float64) {
	ctx := context.Background()
	// Receive and commit times are matched afterwards: a message can arrive
	// before its producer has noted the commit time.
	var committed, got sync.Map // outbox id -> time
	var received atomic.Int64
	cons, err := e.js.OrderedConsumer(ctx, e.stream, jetstream.OrderedConsumerConfig{})
	if err != nil {
		b.Fatal(err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		now := time.Now()
		if _, dup := got.LoadOrStore(m.Headers().Get("outbox-id"), now); !dup {
			received.Add(1)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	defer cc.Stop()

	total := int(flagLatencyFor.Seconds() * float64(*flagRate))
	jobs := make(chan int, total)
	var wg sync.WaitGroup
	var cmu sync.Mutex
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				id := newID()
				agg := fmt.Sprintf("agg-%d", i%*flagAggregates)
				start := time.Now()
				tx, err := e.pool.Begin(ctx)
				if err != nil {
					b.Error(err)
					return
				}
				_, err = tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))`, e.subject(), agg)
				if err == nil {
					_, err = tx.Exec(ctx, `INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload) VALUES ($1, $2, $3, 'order.created', $4)`,
						id, e.subject(), agg, fmt.Sprintf(`{"agg": %q, "n": %d}`, agg, i))
				}
				if err == nil {
					err = tx.Commit(ctx)
				}
				if err != nil {
					b.Error(err)
					return
				}
				done := time.Now()
				committed.Store(id, done)
				cmu.Lock()
				commits = append(commits, float64(done.Sub(start).Microseconds())/1000)
				cmu.Unlock()
			}
		}()
	}
	tick := time.NewTicker(time.Second / time.Duration(*flagRate))
	for i := 0; i < total; i++ {
		<-tick.C
		jobs <- i
	}
	tick.Stop()
	close(jobs)
	wg.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for received.Load() < int64(total) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := received.Load(); got < int64(total) {
		b.Fatalf("received %d of %d", got, total)
	}
	committed.Range(func(id, c any) bool {
		if r, ok := got.Load(id); ok {
			latencies = append(latencies, max(0, float64(r.(time.Time).Sub(c.(time.Time)).Microseconds())/1000))
		}
		return true
	})
	return latencies, commits
}
