package outboxrelay

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the relay's own counters and gauges. The outbox state gauges
// (pending, oldest pending age, dead letters) come from StatsCollector.
type Metrics struct {
	Published     prometheus.Counter     // outbox_relay_published_total
	Failed        *prometheus.CounterVec // outbox_relay_publish_failures_total{reason=rejected|unavailable}
	DeadLettered  prometheus.Counter     // outbox_relay_dead_lettered_total
	BatchDuration prometheus.Histogram   // outbox_relay_batch_duration_seconds
	Leader        prometheus.Gauge       // outbox_relay_leader: 1 while this relay holds the leader lock (leader mode)
	ShardsOwned   prometheus.Gauge       // outbox_relay_shards_owned: shards whose lock this relay held on its last round
	CleanedUp     *prometheus.CounterVec // outbox_cleanup_deleted_total{table=outbox|inbox}
	// DuplicateAcks: acks the broker gave as duplicates (JetStream's
	// duplicate window): the message was not delivered again. A replay
	// inside the window shows here.
	DuplicateAcks prometheus.Counter // outbox_relay_duplicate_acks_total
}

var tableLabel = prometheus.Labels{"outbox_table": Table}

// NewMetrics creates the relay metrics (not registered).
func NewMetrics() *Metrics {
	return &Metrics{
		Published: prometheus.NewCounter(prometheus.CounterOpts{Name: "outbox_relay_published_total",
			Help: "Outbox messages acked by the broker and marked published.", ConstLabels: tableLabel}),
		Failed: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "outbox_relay_publish_failures_total",
			Help: "Failed publishes: rejected by the broker (uses an attempt) or broker unavailable (does not).", ConstLabels: tableLabel}, []string{"reason"}),
		DeadLettered: prometheus.NewCounter(prometheus.CounterOpts{Name: "outbox_relay_dead_lettered_total",
			Help: "Outbox messages moved to the dead-letter state after their last attempt.", ConstLabels: tableLabel}),
		BatchDuration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "outbox_relay_batch_duration_seconds",
			Help: "Duration of batch transactions that published something: claim, publish, acks, mark, commit.", ConstLabels: tableLabel,
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16)}),
		Leader: prometheus.NewGauge(prometheus.GaugeOpts{Name: "outbox_relay_leader",
			Help: "1 while this relay holds the leader lock (leader mode, one shard).", ConstLabels: tableLabel}),
		ShardsOwned: prometheus.NewGauge(prometheus.GaugeOpts{Name: "outbox_relay_shards_owned",
			Help: "Shards whose relay lock this relay held on its last round.", ConstLabels: tableLabel}),
		CleanedUp: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "outbox_cleanup_deleted_total",
			Help: "Rows deleted by the scheduled cleanup.", ConstLabels: tableLabel}, []string{"table"}),
		DuplicateAcks: prometheus.NewCounter(prometheus.CounterOpts{Name: "outbox_relay_duplicate_acks_total",
			Help: "Publishes the broker acked as duplicates of a message it saw within its duplicate window (not delivered again).", ConstLabels: tableLabel}),
	}
}

// Register registers every relay metric with reg.
func (m *Metrics) Register(reg prometheus.Registerer) error {
	for _, c := range []prometheus.Collector{m.Published, m.Failed, m.DeadLettered, m.BatchDuration, m.Leader, m.ShardsOwned, m.CleanedUp, m.DuplicateAcks} {
		if err := reg.Register(c); err != nil {
			return err
		}
	}
	return nil
}

// StatsCollector exports the outbox state, computed in SQL at scrape time:
// any process that can reach the database exports the same values, so the
// oldest-pending-age alert fires even when every relay is stopped.
type StatsCollector struct {
	db      *DB
	timeout time.Duration
	log     *slog.Logger

	pending, retrying, dead, age *prometheus.Desc
	errors                       prometheus.Counter
}

// NewStatsCollector returns a collector that queries db on every scrape.
func NewStatsCollector(db *DB, log *slog.Logger) *StatsCollector {
	if log == nil {
		log = slog.Default()
	}
	return &StatsCollector{
		db: db, timeout: 5 * time.Second, log: log,
		pending:  prometheus.NewDesc("outbox_pending_messages", "Outbox rows not yet published and not dead-lettered.", nil, tableLabel),
		retrying: prometheus.NewDesc("outbox_retrying_messages", "Pending outbox rows waiting for a retry after a failed publish.", nil, tableLabel),
		dead:     prometheus.NewDesc("outbox_dead_letters", "Dead-lettered outbox rows (not pending; requeue with replay --dead).", nil, tableLabel),
		age:      prometheus.NewDesc("outbox_oldest_pending_age_seconds", "Age of the oldest pending outbox row (0 when none).", nil, tableLabel),
		errors: prometheus.NewCounter(prometheus.CounterOpts{Name: "outbox_stats_errors_total",
			Help: "Scrapes whose outbox stats query failed (the stats gauges are then missing).", ConstLabels: tableLabel}),
	}
}

// Describe implements prometheus.Collector.
func (c *StatsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.pending
	ch <- c.retrying
	ch <- c.dead
	ch <- c.age
	c.errors.Describe(ch)
}

// Collect implements prometheus.Collector.
func (c *StatsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	st, err := c.db.Stats(ctx)
	if err != nil {
		c.errors.Inc()
		c.log.Warn("outbox stats query failed", "err", err)
	} else {
		ch <- prometheus.MustNewConstMetric(c.pending, prometheus.GaugeValue, float64(st.Pending))
		ch <- prometheus.MustNewConstMetric(c.retrying, prometheus.GaugeValue, float64(st.Retrying))
		ch <- prometheus.MustNewConstMetric(c.dead, prometheus.GaugeValue, float64(st.DeadLetters))
		ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, st.OldestPendingAge.Seconds())
	}
	c.errors.Collect(ch)
}

// NewRegistry returns a registry with the Go and process collectors, the
// outbox stats of db and, when m is not nil, the relay metrics.
func NewRegistry(db *DB, m *Metrics, log *slog.Logger) (*prometheus.Registry, error) {
	reg := prometheus.NewRegistry()
	if err := reg.Register(collectors.NewGoCollector()); err != nil {
		return nil, err
	}
	if err := reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})); err != nil {
		return nil, err
	}
	if err := reg.Register(NewStatsCollector(db, log)); err != nil {
		return nil, err
	}
	if m != nil {
		if err := m.Register(reg); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// Serve serves /metrics from reg and /healthz (200 while db answers) on addr
// until ctx ends. It returns the address it listens on and a channel that
// yields the server's error when it stops.
func Serve(ctx context.Context, addr string, reg *prometheus.Registry, db *DB, log *slog.Logger) (net.Addr, <-chan error, error) {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		pctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := db.Ping(pctx); err != nil {
			http.Error(w, "database: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() {
		err := srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		done <- err
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	log.Info("serving metrics", "addr", ln.Addr().String(), "paths", "/metrics /healthz")
	return ln.Addr(), done, nil
}
