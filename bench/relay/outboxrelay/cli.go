package outboxrelay

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"
)

const usage = `outbox-relay publishes the outbox table to jetstream.

usage: outbox-relay <command> [flags]

commands:
  run      relay outbox rows to the broker (and serve /metrics, /healthz)
  status   print pending / dead-letter counts; --serve exports them as metrics
  cleanup  delete published outbox rows and old inbox rows, in batches
  replay   requeue dead letters or published rows (prints the count; --yes applies)

Every flag can also be set by an environment variable: OUTBOX_ and the flag
name in upper case with - as _ (--batch-size: OUTBOX_BATCH_SIZE). The database
URL falls back to DATABASE_URL. Run "outbox-relay <command> -h" for its flags.
`

// Main runs the outbox-relay command line with args (without the program
// name) and returns the exit code: 0 success, 1 failure, 2 bad usage. ctx
// ending (SIGTERM) stops "run" gracefully.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmds := map[string]func(context.Context, []string, io.Writer, io.Writer) error{
		"run": runCmd, "status": statusCmd, "cleanup": cleanupCmd, "replay": replayCmd,
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "outbox-relay: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	err := cmd(ctx, args[1:], stdout, stderr)
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "outbox-relay %s: %v\n", args[0], err)
		return 2
	default:
		fmt.Fprintf(stderr, "outbox-relay %s: %v\n", args[0], err)
		return 1
	}
}

type usageError struct{ error }

// common holds the flags every command has.
type common struct {
	databaseURL string
	logFormat   string
	logLevel    string
	pooler      string
	dbTLS       tlsFlags
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.databaseURL, "database-url", "", "database URL (postgres://user@host:5432/db); default $DATABASE_URL")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&c.pooler, "pooler", "none", "none, or pgbouncer: the database URL goes through PgBouncer in transaction pooling (no prepared statements: pgx exec mode; no LISTEN: the relay polls)")
	c.dbTLS.register(fs, "database", "the database")
}

func (c *common) logger(stderr io.Writer) (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.logLevel)); err != nil {
		return nil, usageError{fmt.Errorf("--log-level %q: %w", c.logLevel, err)}
	}
	opts := &slog.HandlerOptions{Level: level}
	switch c.logFormat {
	case "text":
		return slog.New(slog.NewTextHandler(stderr, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(stderr, opts)), nil
	}
	return nil, usageError{fmt.Errorf("--log-format %q: want text or json", c.logFormat)}
}

func (c *common) open(ctx context.Context, maxConns int) (*DB, error) {
	url := c.databaseURL
	if url == "" {
		url = os.Getenv("DATABASE_URL")
	}
	if url == "" {
		return nil, usageError{errors.New("no database: set --database-url, OUTBOX_DATABASE_URL or DATABASE_URL")}
	}
	switch c.pooler {
	case "none", "":
	case "pgbouncer":
		// Transaction pooling has no prepared statements before PgBouncer
		// 1.21: unnamed statements only (pgx's exec mode), unless the URL
		// already chose a mode.
		if !strings.Contains(url, "default_query_exec_mode") {
			switch {
			case strings.Contains(url, "://") && strings.Contains(url, "?"):
				url += "&default_query_exec_mode=exec"
			case strings.Contains(url, "://"):
				url += "?default_query_exec_mode=exec"
			default:
				url += " default_query_exec_mode=exec"
			}
		}
	default:
		return nil, usageError{fmt.Errorf("--pooler %q: want none or pgbouncer", c.pooler)}
	}
	tc, err := c.dbTLS.config()
	if err != nil {
		return nil, err
	}
	db, err := openTLS(ctx, url, maxConns, tc)
	if err != nil && tlsFailure(err) {
		return nil, tlsHint(err, "database")
	}
	return db, err
}

// parse parses args, then fills every flag not given on the command line
// from its environment variable.
func parse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected arguments: %s", strings.Join(fs.Args(), " "))}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		name := EnvName(f.Name)
		v, ok := os.LookupEnv(name)
		if set[f.Name] || !ok || err != nil {
			return
		}
		if serr := fs.Set(f.Name, v); serr != nil {
			err = usageError{fmt.Errorf("%s=%q: %w", name, v, serr)}
		}
	})
	return err
}

// EnvName is the environment variable of a flag: OUTBOX_BATCH_SIZE for batch-size.
func EnvName(flagName string) string {
	return "OUTBOX_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("outbox-relay "+name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: outbox-relay %s [flags]   (each flag also from OUTBOX_<FLAG>)\n", name)
		fs.PrintDefaults()
	}
	return fs
}

func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run")
	var c common
	c.register(fs)
	var b brokerOptions
	b.register(fs)
	var o Options
	var metricsAddr string
	fs.IntVar(&o.BatchSize, "batch-size", 500, "rows per batch transaction")
	fs.IntVar(&o.Shards, "shards", 1, "1: leader mode (one active relay); N: N shards, each with its own lock, split among the running relays (use the same N on every relay)")
	fs.IntVar(&o.Pipeline, "pipeline", 0, pipelineUsage)
	fs.DurationVar(&o.PollInterval, "poll-interval", 500*time.Millisecond, "poll this often when no notification arrives")
	fs.StringVar(&o.Notify, "notify", defaultNotify, "auto: LISTEN for the insert trigger's NOTIFY after a self-test, polling if it fails; off: poll only")
	fs.DurationVar(&o.NotifyDebounce, "notify-debounce", time.Millisecond, "at most one batch per shard per this interval when woken by notifications")
	fs.DurationVar(&o.NotifyTimeout, "notify-selftest-timeout", 2*time.Second, "how long the NOTIFY self-test waits at start")
	fs.IntVar(&o.MaxAttempts, "max-attempts", 10, "broker rejections before a message is dead-lettered")
	fs.DurationVar(&o.RetryBase, "retry-base", time.Second, "first retry delay (doubles per attempt, with jitter)")
	fs.DurationVar(&o.RetryMax, "retry-max", 5*time.Minute, "longest retry delay")
	fs.DurationVar(&o.OutageRetryMax, "outage-retry-max", 5*time.Second, "longest wait between tries while the broker or database is unreachable (bounds how long the relay idles after an outage ends)")
	fs.StringVar(&o.OnDeadLetter, "on-dead-letter", "block", "block: a dead letter holds back the later messages of its aggregate until replayed; skip: they go on")
	fs.DurationVar(&o.PublishTimeout, "publish-timeout", 30*time.Second, "longest wait for broker acks of one wave of messages")
	fs.DurationVar(&o.Failover, "failover", 60*time.Second, "a standby takes over within this time when the leader freezes or its host vanishes mid-batch (the batch session's server-side limit; publish waits end within 3/4 of it)")
	fs.DurationVar(&o.ShutdownTimeout, "shutdown-timeout", 30*time.Second, "on SIGTERM, finish the current batch within this time, else abandon it (rolled back, published again later)")
	fs.DurationVar(&o.CleanupEvery, "cleanup-every", 0, "run cleanup this often (0: never; or schedule `outbox-relay cleanup`)")
	fs.DurationVar(&o.Cleanup.Retention, "retention", 7*24*time.Hour, "scheduled cleanup: delete outbox rows published longer ago than this")
	fs.DurationVar(&o.Cleanup.InboxRetention, "inbox-retention", 7*24*time.Hour, "scheduled cleanup: delete inbox rows received longer ago than this (negative: keep)")
	fs.IntVar(&o.Cleanup.BatchSize, "cleanup-batch-size", 1000, "scheduled cleanup: rows per delete statement")
	fs.StringVar(&metricsAddr, "metrics-addr", ":9464", "serve /metrics and /healthz here (empty: off)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	log, err := c.logger(stderr)
	if err != nil {
		return err
	}
	o.Logger = log
	if c.pooler == "pgbouncer" {
		o.Notify = "off" // LISTEN needs a session of its own; transaction pooling has none
	}
	o.Failpoint = os.Getenv("OUTBOX_RELAY_FAILPOINT")
	if o.Failpoint != "" {
		log.Warn("test failpoint enabled (OUTBOX_RELAY_FAILPOINT); never set it in production", "failpoint", o.Failpoint)
	}
	if o, err = o.withDefaults(); err != nil {
		return usageError{err}
	}
	if _, err := parseFailpoint(o.Failpoint); err != nil {
		return usageError{err}
	}
	db, err := c.open(ctx, o.Shards*o.Pipeline+3)
	if err != nil {
		return err
	}
	defer db.Close()
	pub, err := b.open(ctx, log)
	if err != nil {
		return fmt.Errorf("connect to jetstream: %w", err)
	}
	defer func() {
		if err := pub.Close(); err != nil {
			log.Warn("closing the broker client", "err", err)
		}
	}()
	o.Metrics = NewMetrics()
	if metricsAddr != "" {
		reg, err := NewRegistry(db, o.Metrics, log)
		if err != nil {
			return err
		}
		if _, _, err := Serve(ctx, metricsAddr, reg, db, log); err != nil {
			return fmt.Errorf("serve metrics on %s: %w", metricsAddr, err)
		}
	}
	r, err := New(db, pub, o)
	if err != nil {
		return usageError{err}
	}
	return r.Run(ctx)
}

func statusCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("status")
	var c common
	c.register(fs)
	var asJSON bool
	var serve string
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.StringVar(&serve, "serve", "", "then serve the outbox gauges on this address (/metrics, /healthz) until stopped; needs no relay and no leadership")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	log, err := c.logger(stderr)
	if err != nil {
		return err
	}
	db, err := c.open(ctx, 2)
	if err != nil {
		return err
	}
	defer db.Close()
	st, err := db.Stats(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		if err := json.NewEncoder(stdout).Encode(st); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "outbox table:       %s\npending:            %d\nretrying:           %d\nblocked:            %d\ndead letters:       %d\noldest pending age: %s\n",
			Table, st.Pending, st.Retrying, st.Blocked, st.DeadLetters, st.OldestPendingAge.Round(time.Millisecond))
	}
	if serve == "" {
		return nil
	}
	reg, err := NewRegistry(db, nil, log)
	if err != nil {
		return err
	}
	_, done, err := Serve(ctx, serve, reg, db, log)
	if err != nil {
		return fmt.Errorf("serve metrics on %s: %w", serve, err)
	}
	return <-done
}

func cleanupCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("cleanup")
	var c common
	c.register(fs)
	var o CleanupOptions
	var asJSON bool
	fs.DurationVar(&o.Retention, "retention", 7*24*time.Hour, "delete outbox rows published longer ago than this")
	fs.DurationVar(&o.InboxRetention, "inbox-retention", 7*24*time.Hour, "delete inbox rows received longer ago than this (negative: keep the inbox)")
	fs.IntVar(&o.BatchSize, "batch-size", 1000, "rows per delete statement")
	fs.StringVar(&o.InboxTable, "inbox-table", InboxTable, "inbox table to prune (skipped when it does not exist)")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	log, err := c.logger(stderr)
	if err != nil {
		return err
	}
	if o.Retention <= 0 {
		return usageError{fmt.Errorf("--retention %s: must be positive", o.Retention)}
	}
	db, err := c.open(ctx, 2)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := db.s.cleanup(ctx, o.withDefaults(), log)
	if asJSON {
		_ = json.NewEncoder(stdout).Encode(res)
	} else {
		fmt.Fprintf(stdout, "deleted %d published outbox rows older than %s\ndeleted %d inbox rows older than %s\n",
			res.OutboxDeleted, o.Retention, res.InboxDeleted, o.withDefaults().InboxRetention)
	}
	return err
}

func replayCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay")
	var c common
	c.register(fs)
	var f ReplayFilter
	var since, until string
	var yes bool
	fs.BoolVar(&f.Dead, "dead", false, "dead-lettered messages")
	fs.StringVar(&f.AggregateType, "aggregate-type", "", "only this aggregate_type")
	fs.StringVar(&f.AggregateID, "aggregate-id", "", "only this aggregate_id")
	fs.StringVar(&f.EventType, "event-type", "", "only this event_type")
	fs.StringVar(&since, "since", "", "created at or after: RFC 3339 time, or a duration ago (24h)")
	fs.StringVar(&until, "until", "", "created before: RFC 3339 time, or a duration ago")
	fs.BoolVar(&yes, "yes", false, "requeue them (without it nothing changes)")
	if err := parse(fs, args, stderr); err != nil {
		return err
	}
	if _, err := c.logger(stderr); err != nil {
		return err
	}
	var err error
	if f.Since, err = parseWhen(since); err != nil {
		return usageError{fmt.Errorf("--since: %w", err)}
	}
	if f.Until, err = parseWhen(until); err != nil {
		return usageError{fmt.Errorf("--until: %w", err)}
	}
	if f.empty() {
		return usageError{errors.New("give at least one filter: --dead, --aggregate-type, --aggregate-id, --event-type, --since or --until")}
	}
	db, err := c.open(ctx, 2)
	if err != nil {
		return err
	}
	defer db.Close()
	n, err := db.Replay(ctx, f, false)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d messages match\n", n)
	if !yes {
		fmt.Fprintln(stdout, "nothing changed; run again with --yes to requeue them")
		return nil
	}
	n, err = db.Replay(ctx, f, true)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "requeued %d messages\n", n)
	// The relay publishes with Nats-Msg-Id = the outbox id: JetStream drops
	// a replayed message it saw within the stream's duplicate window.
	fmt.Fprintln(stdout, "note: JetStream acks a message id it saw within the stream's duplicate window (2m by default) without delivering it again; replayed messages published that recently show as outbox_relay_duplicate_acks_total, not as deliveries")
	return nil
}

func parseWhen(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(s); err == nil {
		return time.Now().Add(-d), nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 time nor a duration", s)
	}
	return t, nil
}
