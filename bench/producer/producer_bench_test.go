package producerbench

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v4/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
	_ "github.com/go-sql-driver/mysql"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib"
	gmysql "gorm.io/driver/mysql"
	gpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/outboxify/outboxify/bench/producer/internal/writers"
	myoutbox "github.com/outboxify/outboxify/bench/producer/myoutbox"
	pgoutbox "github.com/outboxify/outboxify/bench/producer/pgoutbox"
)

var (
	duration  = flag.Duration("duration", 3*time.Second, "how long each configuration runs (after a warm-up of 200 transactions)")
	rtTx      = flag.Int("rt-tx", 300, "transactions of the round-trip count (one producer, through a counting proxy)")
	only      = flag.String("only", "", "run only configurations whose name contains this")
	resultsTo = flag.String("results", "", "also write the results table (markdown) to this file")
	pgAddr    = flag.String("pg", envOr("OUTBOXIFY_PG_ADDR", "127.0.0.1:5432"), "PostgreSQL host:port (user postgres, trust)")
	myAddr    = flag.String("mysql", envOr("OUTBOXIFY_MYSQL_ADDR", "127.0.0.1:3306"), "MariaDB/MySQL host:port (root, no password)")
)

func envOr(k, v string) string {
	if s := os.Getenv(k); s != "" {
		return s
	}
	return v
}

// txFunc runs one business transaction: insert the order row, then the
// message (plain INSERT, outbox.Insert or watermill), commit.
type txFunc func(ctx context.Context, aggregateID string) error

type result struct {
	name               string
	db, driver, method string
	producers          int
	aggregates         string
	txs                int
	tps                float64
	p50, p99           time.Duration
	rtPerTx            float64
	errs               int64
}

// BenchmarkProducer runs every configuration once (-benchtime 1x) and prints
// one table; its numbers are wall-clock, not b.N based.
func BenchmarkProducer(b *testing.B) {
	if b.N > 1 {
		b.Skip("run with -benchtime 1x")
	}
	var results []result
	for _, db := range []string{"postgres", "mysql"} {
		env := setupDB(b, db)
		for _, drv := range env.drivers() {
			for _, method := range []string{"plain", "outbox", "outbox-notify-off", "outbox-notify-always", "watermill"} {
				mk := env.method(drv, method)
				if mk == nil || strings.Contains(method, "-notify-") && db != "postgres" {
					continue
				}
				// outbox-notify-off: the writer with the migration's NOTIFY
				// trigger disabled (--notify off), to show what the trigger costs.
				// outbox: the trigger as generated (schema 4) notifies only
				// while a relay idles; none does here, so it never notifies.
				// outbox-notify-always: the trigger before schema 4, a NOTIFY
				// per insert (what every insert pays while a relay idles).
				env.setTriggers(b, method)
				// Round trips: one producer through the counting proxy.
				rt := env.roundTrips(b, drv, method)
				for _, producers := range []int{1, 16} {
					for _, aggs := range []string{"spread", "hot"} {
						name := fmt.Sprintf("%s/%s/%s/p%d/%s", db, drv, method, producers, aggs)
						if *only != "" && !strings.Contains(name, *only) {
							continue
						}
						r := run(b, name, env.direct, mk, producers, aggs)
						r.db, r.driver, r.method, r.producers, r.aggregates, r.rtPerTx = db, drv, method, producers, aggs, rt
						results = append(results, r)
						b.Logf("%-40s %8.0f tx/s  p50 %-9v p99 %-9v rt/tx %.2f errs %d", name, r.tps, r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), rt, r.errs)
					}
				}
			}
		}
		env.close()
	}
	table := resultsTable(results)
	fmt.Println(table)
	if *resultsTo != "" {
		if err := os.WriteFile(*resultsTo, []byte(table), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func run(b *testing.B, name string, c *conns, mk func(*conns) txFunc, producers int, aggs string) result {
	ctx := context.Background()
	f := mk(c)
	var seq atomic.Int64
	agg := func() string {
		if aggs == "hot" {
			return "hot-aggregate"
		}
		return fmt.Sprintf("order-%d", seq.Add(1))
	}
	for i := 0; i < 200; i++ { // warm-up: connections, statement caches
		if err := f(ctx, agg()); err != nil {
			b.Fatalf("%s warm-up: %v", name, err)
		}
	}
	var errs atomic.Int64
	lat := make([][]time.Duration, producers)
	stop := time.Now().Add(*duration)
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < producers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for time.Now().Before(stop) {
				t0 := time.Now()
				if err := f(ctx, agg()); err != nil {
					if errs.Add(1) == 1 {
						b.Logf("%s: %v", name, err)
					}
					continue
				}
				lat[w] = append(lat[w], time.Since(t0))
			}
		}(w)
	}
	wg.Wait()
	elapsed := time.Since(start)
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	r := result{name: name, txs: len(all), tps: float64(len(all)) / elapsed.Seconds(), errs: errs.Load()}
	if len(all) > 0 {
		r.p50, r.p99 = all[len(all)/2], all[len(all)*99/100]
	}
	return r
}

// ---- databases and drivers ----

type conns struct {
	db     string
	sqlDB  *sql.DB
	pool   *pgxpool.Pool // postgres only
	gormDB *gorm.DB
}

type env struct {
	db, name string
	direct   *conns
	proxy    *countingProxy
	viaProxy *conns
	adminDB  *sql.DB
	wmTopic  string
	// notifyFunc is the migration's trigger function as PostgreSQL prints
	// it (pg_get_functiondef), read before notifyAlways replaces it
	notifyFunc string
}

func (e *env) drivers() []string {
	if e.db == "postgres" {
		return []string{"database/sql", "pgx", "gorm"}
	}
	return []string{"database/sql", "gorm"}
}

func dsn(db, addr, name string) string {
	if db == "postgres" {
		host, port, _ := net.SplitHostPort(addr)
		return fmt.Sprintf("host=%s port=%s user=postgres dbname=%s sslmode=disable", host, port, name)
	}
	return fmt.Sprintf("root@tcp(%s)/%s?parseTime=true&multiStatements=true", addr, name)
}

func openConns(b *testing.B, db, addr, name string, max int) *conns {
	c := &conns{db: db}
	var err error
	drv := map[string]string{"postgres": "pgx", "mysql": "mysql"}[db]
	if c.sqlDB, err = sql.Open(drv, dsn(db, addr, name)); err != nil {
		b.Fatal(err)
	}
	c.sqlDB.SetMaxOpenConns(max)
	c.sqlDB.SetMaxIdleConns(max)
	gcfg := &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true}
	if db == "postgres" {
		cfg, err := pgxpool.ParseConfig(dsn(db, addr, name))
		if err != nil {
			b.Fatal(err)
		}
		cfg.MaxConns = int32(max)
		if c.pool, err = pgxpool.NewWithConfig(context.Background(), cfg); err != nil {
			b.Fatal(err)
		}
		gsql, err := sql.Open("pgx", dsn(db, addr, name))
		if err != nil {
			b.Fatal(err)
		}
		gsql.SetMaxOpenConns(max)
		gsql.SetMaxIdleConns(max)
		c.gormDB, err = gorm.Open(gpostgres.New(gpostgres.Config{Conn: gsql}), gcfg)
	} else {
		gsql, err2 := sql.Open("mysql", dsn(db, addr, name))
		if err2 != nil {
			b.Fatal(err2)
		}
		gsql.SetMaxOpenConns(max)
		gsql.SetMaxIdleConns(max)
		c.gormDB, err = gorm.Open(gmysql.New(gmysql.Config{Conn: gsql}), gcfg)
	}
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func (c *conns) close() {
	c.sqlDB.Close()
	if c.pool != nil {
		c.pool.Close()
	}
	if s, err := c.gormDB.DB(); err == nil {
		s.Close()
	}
}

func setupDB(b *testing.B, db string) *env {
	addr := *pgAddr
	admin := "postgres"
	if db == "mysql" {
		addr, admin = *myAddr, ""
	}
	name := fmt.Sprintf("outbox_producer_bench_%d", rand.Int63n(1<<30))
	a, err := sql.Open(map[string]string{"postgres": "pgx", "mysql": "mysql"}[db], dsn(db, addr, admin))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := a.Exec("CREATE DATABASE " + name); err != nil {
		b.Fatalf("%s: %v", db, err)
	}
	e := &env{db: db, name: name, adminDB: a, wmTopic: "orders"}
	b.Cleanup(func() {
		if db == "postgres" {
			a.Exec("DROP DATABASE " + name + " WITH (FORCE)")
		} else {
			a.Exec("DROP DATABASE " + name)
		}
		a.Close()
	})
	mig, err := writers.Migration(db)
	if err != nil {
		b.Fatal(err)
	}
	e.direct = openConns(b, db, addr, name, 16)
	ddl := []string{mig}
	if db == "postgres" {
		ddl = append(ddl, `CREATE TABLE orders (id uuid PRIMARY KEY, customer text NOT NULL, amount bigint NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
			`CREATE TABLE outbox_plain (LIKE outbox INCLUDING ALL)`)
	} else {
		ddl = append(ddl, `CREATE TABLE orders (id char(36) PRIMARY KEY, customer varchar(255) NOT NULL, amount bigint NOT NULL, created_at timestamp(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))`,
			`CREATE TABLE outbox_plain LIKE outbox`)
	}
	for _, q := range ddl {
		if _, err := e.direct.sqlDB.Exec(q); err != nil {
			b.Fatalf("%s: %v\n%s", db, err, q)
		}
	}
	// watermill's table for the topic, made before the runs: its publisher
	// cannot create it inside a transaction.
	p, err := wsql.NewPublisher(wsql.BeginnerFromStdSQL(e.direct.sqlDB), wsql.PublisherConfig{SchemaAdapter: wmSchema(db), AutoInitializeSchema: true}, watermill.NopLogger{})
	if err != nil {
		b.Fatal(err)
	}
	if err := p.Publish(e.wmTopic, message.NewMessage(watermill.NewUUID(), []byte(`{}`))); err != nil {
		b.Fatalf("watermill schema: %v", err)
	}
	e.proxy = newCountingProxy(b, addr)
	e.viaProxy = openConns(b, db, e.proxy.addr, name, 1)
	return e
}

func (e *env) setTriggers(b *testing.B, method string) {
	if e.db != "postgres" {
		return
	}
	if e.notifyFunc == "" {
		// the migration's own trigger function, to put back after notifyAlways
		if err := e.direct.sqlDB.QueryRow(`SELECT pg_get_functiondef('outbox_notify'::regproc)`).Scan(&e.notifyFunc); err != nil {
			b.Fatal(err)
		}
	}
	q := []string{"ALTER TABLE outbox ENABLE TRIGGER USER", e.notifyFunc}
	switch method {
	case "outbox-notify-off":
		q = []string{"ALTER TABLE outbox DISABLE TRIGGER USER"}
	case "outbox-notify-always":
		q = []string{"ALTER TABLE outbox ENABLE TRIGGER USER", notifyAlways}
	}
	for _, s := range q {
		if _, err := e.direct.sqlDB.Exec(s); err != nil {
			b.Fatal(err)
		}
	}
}

// notifyAlways is the trigger function up to schema 4: a NOTIFY for every
// inserting statement, idle relay or not.
const notifyAlways = `CREATE OR REPLACE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('outbox', 'outbox');
    RETURN NULL;
END;
$$`

func (e *env) close() { e.direct.close(); e.viaProxy.close(); e.proxy.close() }

func wmSchema(db string) wsql.SchemaAdapter {
	if db == "postgres" {
		return wsql.DefaultPostgreSQLSchema{}
	}
	return wsql.DefaultMySQLSchema{}
}

// ---- the three ways of writing the message ----

type row struct{ orderID, payload string }

func newRow() row {
	id := uuid.Must(uuid.NewV7()).String()
	return row{orderID: id, payload: fmt.Sprintf(`{"order_id":%q,"customer":"c-42","amount":1999}`, id)}
}

func (e *env) sqlText(q string) string {
	if e.db != "postgres" {
		return q
	}
	n := 0
	var b strings.Builder
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

const (
	orderSQL = `INSERT INTO orders (id, customer, amount) VALUES (?, ?, ?)`
	plainSQL = `INSERT INTO outbox_plain (id, aggregate_type, aggregate_id, event_type, payload, headers) VALUES (?, ?, ?, ?, ?, ?)`
)

// method returns the transaction of drv and method, or nil when it does
// not apply (watermill has no gorm adapter).
func (e *env) method(drv, method string) func(*conns) txFunc {
	if method == "watermill" && drv == "gorm" {
		return nil
	}
	method, _, _ = strings.Cut(method, "-notify-")
	orderQ, plainQ := e.sqlText(orderSQL), e.sqlText(plainSQL)
	gOrderQ, gPlainQ := orderSQL, plainSQL // gorm binds ?
	wmCfg := wsql.PublisherConfig{SchemaAdapter: wmSchema(e.db)}
	topic := e.wmTopic
	switch drv {
	case "database/sql":
		return func(c *conns) txFunc {
			return func(ctx context.Context, agg string) error {
				r := newRow()
				tx, err := c.sqlDB.BeginTx(ctx, nil)
				if err != nil {
					return err
				}
				defer tx.Rollback()
				if _, err := tx.ExecContext(ctx, orderQ, r.orderID, "c-42", 1999); err != nil {
					return err
				}
				switch method {
				case "plain":
					_, err = tx.ExecContext(ctx, plainQ, uuid.Must(uuid.NewV7()).String(), "orders", agg, "OrderPlaced", r.payload, "{}")
				case "outbox":
					if e.db == "postgres" {
						err = pgoutbox.Insert(ctx, tx, pgoutbox.Message{AggregateType: "orders", AggregateID: agg, EventType: "OrderPlaced", Payload: []byte(r.payload)})
					} else {
						err = myoutbox.Insert(ctx, tx, myoutbox.Message{AggregateType: "orders", AggregateID: agg, EventType: "OrderPlaced", Payload: []byte(r.payload)})
					}
				case "watermill":
					err = wmPublish(ctx, wsql.TxFromStdSQL(tx), wmCfg, topic, agg, r.payload)
				}
				if err != nil {
					return err
				}
				return tx.Commit()
			}
		}
	case "pgx":
		return func(c *conns) txFunc {
			return func(ctx context.Context, agg string) error {
				r := newRow()
				tx, err := c.pool.Begin(ctx)
				if err != nil {
					return err
				}
				defer tx.Rollback(ctx)
				if _, err := tx.Exec(ctx, orderQ, r.orderID, "c-42", 1999); err != nil {
					return err
				}
				switch method {
				case "plain":
					_, err = tx.Exec(ctx, plainQ, uuid.Must(uuid.NewV7()).String(), "orders", agg, "OrderPlaced", r.payload, "{}")
				case "outbox":
					err = pgoutbox.InsertPgx(ctx, tx, pgoutbox.Message{AggregateType: "orders", AggregateID: agg, EventType: "OrderPlaced", Payload: []byte(r.payload)})
				case "watermill":
					err = wmPublish(ctx, wsql.TxFromPgx(tx), wmCfg, topic, agg, r.payload)
				}
				if err != nil {
					return err
				}
				return tx.Commit(ctx)
			}
		}
	case "gorm":
		return func(c *conns) txFunc {
			return func(ctx context.Context, agg string) error {
				r := newRow()
				return c.gormDB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
					if err := tx.Exec(gOrderQ, r.orderID, "c-42", 1999).Error; err != nil {
						return err
					}
					if method == "plain" {
						return tx.Exec(gPlainQ, uuid.Must(uuid.NewV7()).String(), "orders", agg, "OrderPlaced", r.payload, "{}").Error
					}
					if e.db == "postgres" {
						return pgoutbox.InsertGorm(ctx, tx, pgoutbox.Message{AggregateType: "orders", AggregateID: agg, EventType: "OrderPlaced", Payload: []byte(r.payload)})
					}
					return myoutbox.InsertGorm(ctx, tx, myoutbox.Message{AggregateType: "orders", AggregateID: agg, EventType: "OrderPlaced", Payload: []byte(r.payload)})
				})
			}
		}
	}
	return nil
}

// wmPublish publishes through watermill-sql's publisher on the caller's
// transaction, the way its docs do it: a publisher per transaction.
func wmPublish(ctx context.Context, tx wsql.ContextExecutor, cfg wsql.PublisherConfig, topic, agg, payload string) error {
	p, err := wsql.NewPublisher(tx, cfg, watermill.NopLogger{})
	if err != nil {
		return err
	}
	m := message.NewMessage(watermill.NewUUID(), []byte(payload))
	m.Metadata.Set("aggregate_id", agg)
	m.SetContext(ctx)
	return p.Publish(topic, m)
}

// ---- round trips ----

// roundTrips runs -rt-tx transactions of drv and method on one connection
// through the counting proxy and returns the client->server sends per
// transaction (each send is one round trip: the client waits for the
// answer before it sends again).
func (e *env) roundTrips(b *testing.B, drv, method string) float64 {
	f := e.method(drv, method)(e.viaProxy)
	ctx := context.Background()
	for i := 0; i < 20; i++ {
		if err := f(ctx, fmt.Sprintf("rt-warm-%d", i)); err != nil {
			b.Fatalf("round trips %s %s: %v", drv, method, err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	before := e.proxy.sends.Load()
	for i := 0; i < *rtTx; i++ {
		if err := f(ctx, fmt.Sprintf("rt-%d", i)); err != nil {
			b.Fatalf("round trips %s %s: %v", drv, method, err)
		}
	}
	time.Sleep(50 * time.Millisecond)
	return float64(e.proxy.sends.Load()-before) / float64(*rtTx)
}

// countingProxy forwards TCP to the database and counts the client's sends
// (reads on the client side; on loopback one write arrives as one read).
type countingProxy struct {
	ln    net.Listener
	addr  string
	sends atomic.Int64
}

func newCountingProxy(b *testing.B, target string) *countingProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	p := &countingProxy{ln: ln, addr: ln.Addr().String()}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			go func() { io.Copy(c, s); c.Close() }()
			go func() {
				buf := make([]byte, 64<<10)
				for {
					n, err := c.Read(buf)
					if n > 0 {
						p.sends.Add(1)
						if _, werr := s.Write(buf[:n]); werr != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				s.Close()
			}()
		}
	}()
	return p
}

func (p *countingProxy) close() { p.ln.Close() }

// ---- results ----

func resultsTable(rs []result) string {
	plain := map[string]result{}
	for _, r := range rs {
		if r.method == "plain" {
			plain[fmt.Sprintf("%s/%s/%d/%s", r.db, r.driver, r.producers, r.aggregates)] = r
		}
	}
	var b strings.Builder
	b.WriteString("| database | driver | producers | aggregates | writer | round trips/tx | extra round trips | tx/s | vs plain | p50 | p99 | errors |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs {
		p := plain[fmt.Sprintf("%s/%s/%d/%s", r.db, r.driver, r.producers, r.aggregates)]
		ratio := "-"
		if p.tps > 0 {
			ratio = fmt.Sprintf("%.2f", r.tps/p.tps)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %.2f | %+.2f | %.0f | %s | %v | %v | %d |\n", r.db, r.driver, r.producers, r.aggregates, r.method,
			r.rtPerTx, r.rtPerTx-p.rtPerTx, r.tps, ratio, r.p50.Round(10*time.Microsecond), r.p99.Round(10*time.Microsecond), r.errs)
	}
	return b.String()
}

var _ = pgx.ErrNoRows
