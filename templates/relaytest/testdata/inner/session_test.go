package relaytest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgBatchSpy is a pgx tracer that remembers the connection of the relay's
// last claim (the pipelined batch whose lock statement sets the gate).
type pgBatchSpy struct {
	mu   sync.Mutex
	conn *pgx.Conn
}

func (s *pgBatchSpy) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}
func (s *pgBatchSpy) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (s *pgBatchSpy) TraceBatchStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	for _, q := range data.Batch.QueuedQueries {
		if strings.Contains(q.SQL, "outboxify.relay_gate") {
			s.mu.Lock()
			s.conn = conn
			s.mu.Unlock()
		}
	}
	return ctx
}
func (s *pgBatchSpy) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (s *pgBatchSpy) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// myConnSpy is a MySQL connector that remembers every connection it opens
// by its server connection id.
type myConnSpy struct {
	driver.Connector
	mu    sync.Mutex
	conns map[int64]driver.Conn
}

func (s *myConnSpy) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := s.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	vals, err := driverRow(ctx, c, "SELECT CONNECTION_ID()")
	if err != nil {
		c.Close()
		return nil, err
	}
	s.mu.Lock()
	s.conns[vals[0].(int64)] = c
	s.mu.Unlock()
	return c, nil
}

// driverRow runs a query straight on a driver connection and returns its
// one row.
func driverRow(ctx context.Context, c driver.Conn, query string) ([]driver.Value, error) {
	rows, err := c.(driver.QueryerContext).QueryContext(ctx, query, nil)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	vals := make([]driver.Value, len(rows.Columns()))
	if err := rows.Next(vals); err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%s: no row", query)
		}
		return nil, err
	}
	return vals, nil
}

// TestBatchSessionSettings reads the server-side failover settings back
// from the relay's own batch session, mid-batch: the relay runs in-process
// (FromPool / FromSQL on a handle the test made) with --failover 12s and a
// fake broker whose Publish, called while the batch transaction is open,
// queries that very session (PostgreSQL: the connection a pgx tracer saw
// send the claim, inside the batch transaction, which the gate setting
// proves; MariaDB: the spied connection whose id is the batch's open
// InnoDB transaction). PostgreSQL: idle_in_transaction_session_timeout =
// failover, tcp_keepalives_idle = failover/4, _interval = failover/12,
// _count = 3, tcp_user_timeout = failover/2; after the batch commits the
// connection is back at the server's defaults (SET LOCAL). MariaDB:
// wait_timeout, net_read_timeout and net_write_timeout = failover in
// seconds. Fails if the store stops setting any of them.
func TestBatchSessionSettings(t *testing.T) {
	const failover = 12 * time.Second
	o := defaultFake()
	o.Failover, o.Pipeline, o.BatchSize = failover, 1, 50
	forDialects(t, func(t *testing.T, c relayCase, dialect string) {
		d := openDB(t, dialect)
		rows := d.insert(t, sequence(randName("sess")+".orders", aggregates("s", 2), 6)...)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		got := make(chan map[string]string, 1)
		var once sync.Once
		var read func(ctx context.Context) (map[string]string, error)
		var handle any
		var after func() []map[string]string // the pool's connections after the batches

		switch dialect {
		case "postgres":
			cfg, err := pgxpool.ParseConfig(d.url)
			if err != nil {
				t.Fatal(err)
			}
			spy := &pgBatchSpy{}
			cfg.ConnConfig.Tracer = spy
			pool, err := pgxpool.NewWithConfig(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			handle = pool
			const q = `SELECT name, setting FROM pg_settings WHERE name IN ('idle_in_transaction_session_timeout',
  'tcp_keepalives_idle', 'tcp_keepalives_interval', 'tcp_keepalives_count', 'tcp_user_timeout')
UNION ALL SELECT 'gate', coalesce(current_setting('outboxify.relay_gate', true), '')`
			scan := func(rs pgx.Rows) (map[string]string, error) {
				m := map[string]string{}
				for rs.Next() {
					var k, v string
					if err := rs.Scan(&k, &v); err != nil {
						return nil, err
					}
					m[k] = v
				}
				return m, rs.Err()
			}
			read = func(ctx context.Context) (map[string]string, error) {
				spy.mu.Lock()
				conn := spy.conn
				spy.mu.Unlock()
				if conn == nil {
					return nil, fmt.Errorf("no claim seen by the tracer")
				}
				rs, err := conn.Query(ctx, q)
				if err != nil {
					return nil, err
				}
				m, err := scan(rs)
				if err == nil {
					m["tx status"] = string(conn.PgConn().TxStatus())
				}
				return m, err
			}
			after = func() []map[string]string {
				var ms []map[string]string
				for _, conn := range pool.AcquireAllIdle(ctx) {
					rs, err := conn.Query(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					m, err := scan(rs)
					conn.Release()
					if err != nil {
						t.Fatal(err)
					}
					ms = append(ms, m)
				}
				return ms
			}
		case "mysql":
			cfg, err := mysql.ParseDSN(d.url)
			if err != nil {
				t.Fatal(err)
			}
			inner, err := mysql.NewConnector(cfg)
			if err != nil {
				t.Fatal(err)
			}
			spy := &myConnSpy{Connector: inner, conns: map[int64]driver.Conn{}}
			db := sql.OpenDB(spy)
			defer db.Close()
			handle = db
			read = func(ctx context.Context) (map[string]string, error) {
				// The batch's session is the spied connection with an open
				// InnoDB transaction (the claim locked its rows).
				spy.mu.Lock()
				ids := make([]string, 0, len(spy.conns))
				for id := range spy.conns {
					ids = append(ids, strconv.FormatInt(id, 10))
				}
				spy.mu.Unlock()
				var id int64
				if err := d.sql.QueryRowContext(ctx, "SELECT trx_mysql_thread_id FROM information_schema.INNODB_TRX WHERE trx_mysql_thread_id IN ("+
					strings.Join(ids, ",")+")").Scan(&id); err != nil {
					return nil, fmt.Errorf("the batch's transaction among connections %v: %w", ids, err)
				}
				spy.mu.Lock()
				conn := spy.conns[id]
				spy.mu.Unlock()
				vals, err := driverRow(ctx, conn, "SELECT @@session.wait_timeout, @@session.net_read_timeout, @@session.net_write_timeout, @@in_transaction")
				if err != nil {
					return nil, err
				}
				m := map[string]string{}
				for i, k := range []string{"wait_timeout", "net_read_timeout", "net_write_timeout", "in_transaction"} {
					m[k] = fmt.Sprint(vals[i])
					if b, ok := vals[i].([]byte); ok {
						m[k] = string(b)
					}
				}
				return m, nil
			}
		}

		pub := func(ctx context.Context, msgs []*Msg) []error {
			once.Do(func() {
				m, err := read(ctx)
				if err != nil {
					m = map[string]string{"error": err.Error()}
				}
				got <- m
			})
			return make([]error, len(msgs))
		}
		stop := runFakeWith(t, func(ctx context.Context) error { return c.runFakeOn(ctx, handle, pub, o) })
		var m map[string]string
		select {
		case m = <-got:
		case <-ctx.Done():
			t.Fatal("the relay published no batch within 30s")
		}
		eventually(t, 20*time.Second, "every row published", func() bool { return d.count(t, "published_at IS NULL") == 0 })
		if err := stop(); err != nil {
			t.Fatalf("relay: %v", err)
		}
		t.Logf("counts: rows %d; batch session mid-batch (failover %s): %v", len(rows), failover, m)
		if e := m["error"]; e != "" {
			t.Fatalf("read the batch session: %s", e)
		}
		var want map[string]string
		switch dialect {
		case "postgres":
			want = map[string]string{
				"gate": "open", "tx status": "T", // the batch transaction itself
				"idle_in_transaction_session_timeout": "12000", // ms: failover
				"tcp_keepalives_idle":                 "3",     // s: failover/4
				"tcp_keepalives_interval":             "1",     // s: failover/12
				"tcp_keepalives_count":                "3",
				"tcp_user_timeout":                    "6000", // ms: failover/2
			}
		case "mysql":
			want = map[string]string{"in_transaction": "1", "wait_timeout": "12", "net_read_timeout": "12", "net_write_timeout": "12"}
		}
		for k, v := range want {
			if m[k] != v {
				t.Errorf("batch session %s = %q, want %q", k, m[k], v)
			}
		}
		if after != nil {
			// SET LOCAL: gone from every pooled connection (the batch's
			// among them) once the batch committed.
			var def string
			if err := d.sql.QueryRow("SELECT setting FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout'").Scan(&def); err != nil {
				t.Fatal(err)
			}
			conns := after()
			t.Logf("counts: the relay's %d pooled connections after the batches: %v", len(conns), conns)
			for _, a := range conns {
				if a["idle_in_transaction_session_timeout"] != def || a["gate"] != "" {
					t.Errorf("after the batch a connection keeps idle_in_transaction_session_timeout %q (server default %q), gate %q: not transaction-local",
						a["idle_in_transaction_session_timeout"], def, a["gate"])
				}
			}
		}
	})
}
