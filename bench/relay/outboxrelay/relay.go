package outboxrelay

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Table is the outbox table this relay reads.
const Table = "outbox"

// lockClasses are the first int4 of the relay's two-int4 advisory lock keys
// (class, shard), one per pipeline slot: a batch takes the key of its slot,
// and a batch claimed while another of the same relay is in flight takes
// the other slot's key. Writers lock aggregates with the one-bigint form, a
// separate key space, so relay and writer locks never collide.
var lockClasses = [2]int32{
	int32(crc32.ChecksumIEEE([]byte("outboxify.relay." + Table))),
	int32(crc32.ChecksumIEEE([]byte("outboxify.relay.overlap." + Table))),
}

// idleLockClass is the first int4 of the idle lock's key (idleLockClass, 0):
// a relay holds it while one of its shard leaders waits for a notification,
// and the insert trigger (schema 4) notifies only when it cannot take it
// shared. generate renders the same number into the migration.
var idleLockClass = int32(crc32.ChecksumIEEE([]byte("outboxify.relay.idle." + Table)))

// idleGate tracks whether one of this relay's shard leaders waits for a
// notification, for the store's session that holds the idle lock while one
// does. Producers that took the lock shared (and skipped the NOTIFY) hold it
// until they commit, so the grant comes after their commits: a leader that
// claims once more after the grant has seen their rows, and after that
// every insert notifies until the lock is let go.
type idleGate struct {
	mu      sync.Mutex
	idlers  int           // shard leaders waiting for a notification
	held    bool          // the idle lock is held
	gen     uint64        // grants so far: held since a claim that saw gen g iff held && gen == g
	granted chan struct{} // closed at the next grant
	changed chan struct{} // idlers went from 0 to 1 or back
}

func newIdleGate() *idleGate {
	return &idleGate{granted: make(chan struct{}), changed: make(chan struct{}, 1)}
}

// state reports the grant count, whether the lock is held, and a channel
// closed at the next grant.
func (g *idleGate) state() (gen uint64, held bool, granted <-chan struct{}) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.gen, g.held, g.granted
}

func (g *idleGate) enter() {
	g.mu.Lock()
	g.idlers++
	first := g.idlers == 1
	g.mu.Unlock()
	if first {
		g.signal()
	}
}

func (g *idleGate) leave() {
	g.mu.Lock()
	g.idlers--
	last := g.idlers == 0
	g.mu.Unlock()
	if last {
		g.signal()
	}
}

func (g *idleGate) signal() {
	select {
	case g.changed <- struct{}{}:
	default:
	}
}

// wanted reports whether a leader waits (the lock should be held).
func (g *idleGate) wanted() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.idlers > 0
}

// release records that the lock is about to be let go, unless a leader
// waits: one that reads the state afterwards does not count on it, and one
// that entered before keeps it held.
func (g *idleGate) release() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.idlers > 0 {
		return false
	}
	g.held = false
	return true
}

// setHeld records a grant (true) or the lock's loss (false).
func (g *idleGate) setHeld(held bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if held && !g.held {
		g.gen++
		close(g.granted)
		g.granted = make(chan struct{})
	}
	g.held = held
}

// Options configure a Relay. Zero fields take the defaults below.
type Options struct {
	BatchSize int // rows claimed per batch transaction (500)
	Shards    int // 1: leader mode; N: N shards, each with its own lock (1)
	// Pipeline is how many batch transactions of a shard may be in flight at
	// once: 1, or 2 to claim the next batch (without the aggregates in
	// flight) while the current one is published, when there is a backlog
	// (the last claim with nothing beside it was full); on a backlog the two
	// batches take the two halves of the shard's aggregates by hash. 0: 2 in
	// leader mode on PostgreSQL, else 1. MySQL/MariaDB: 1 only.
	Pipeline       int
	PollInterval   time.Duration // wake-up when no notification arrives (500ms)
	Notify         string        // "auto": LISTEN after a NOTIFY self-test, else poll; "off": poll only ("auto")
	NotifyDebounce time.Duration // at most one batch per shard per this interval on notifications (1ms)
	NotifyTimeout  time.Duration // how long the self-test waits for its own NOTIFY (2s)
	MaxAttempts    int           // rejections before a message is dead-lettered (10)
	RetryBase      time.Duration // first retry delay; doubles per attempt, with jitter (1s)
	RetryMax       time.Duration // longest retry delay (5m)
	// OutageRetryMax is the longest wait between tries while the broker or
	// the database cannot be reached, and the retry delay of a message the
	// broker could not be reached for (5s). It is kept short because it only
	// spares the unreachable server a hot loop: a longer wait just delays
	// the relay's recovery after the outage ends.
	OutageRetryMax time.Duration
	OnDeadLetter   string        // "block": a dead letter holds back its aggregate; "skip": it does not ("block")
	PublishTimeout time.Duration // longest wait for the acks of one wave of publishes (30s)
	// Failover bounds how long a leader that stops (frozen, or its host
	// gone without closing its connection) keeps the lock, so a standby
	// takes over within it (60s). The batch transaction's session gets it
	// as the database's own limit (PostgreSQL idle_in_transaction_session_
	// timeout and TCP keepalives; MySQL wait_timeout); the relay's own
	// batches finish their publish waits within three quarters of it, so a
	// healthy slow batch is never cut off by the server.
	Failover time.Duration
	// ShutdownTimeout bounds how long Run finishes the current batch after
	// its context ends; then the batch is abandoned (rolled back, published
	// again later) (30s).
	ShutdownTimeout time.Duration
	CleanupEvery    time.Duration  // run Cleanup this often from Run; 0: never (0)
	Cleanup         CleanupOptions // what the scheduled cleanup deletes
	Logger          *slog.Logger   // slog.Default() if nil
	Metrics         *Metrics       // metrics to update; unregistered ones if nil
	// Failpoint is a test hook, read from OUTBOX_RELAY_FAILPOINT by Main:
	// "after-publish:pause" or "after-publish:exit", optionally ":N" for the
	// Nth batch that published something. It stops the relay after the broker
	// acked a batch and before the rows are marked published. Empty: off.
	Failpoint string
}

func (o Options) withDefaults() (Options, error) {
	def := func(p *time.Duration, v time.Duration) {
		if *p == 0 {
			*p = v
		}
	}
	if o.BatchSize == 0 {
		o.BatchSize = 500
	}
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.Pipeline == 0 {
		// Shards already overlap one another; a second batch per shard
		// would have to look past most of its shard's aggregates (they are
		// in flight) and scan deep for rows.
		o.Pipeline = 1
		if o.Shards == 1 {
			o.Pipeline = maxPipeline
		}
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = 10
	}
	if o.Notify == "" {
		o.Notify = defaultNotify
	}
	if o.OnDeadLetter == "" {
		o.OnDeadLetter = "block"
	}
	def(&o.PollInterval, 500*time.Millisecond)
	def(&o.NotifyDebounce, time.Millisecond)
	def(&o.NotifyTimeout, 2*time.Second)
	def(&o.RetryBase, time.Second)
	def(&o.RetryMax, 5*time.Minute)
	def(&o.OutageRetryMax, 5*time.Second)
	def(&o.PublishTimeout, 30*time.Second)
	def(&o.Failover, 60*time.Second)
	def(&o.ShutdownTimeout, 30*time.Second)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Metrics == nil {
		o.Metrics = NewMetrics()
	}
	switch {
	case o.BatchSize < 1:
		return o, fmt.Errorf("batch size %d: must be at least 1", o.BatchSize)
	case o.Shards < 1:
		return o, fmt.Errorf("shards %d: must be at least 1", o.Shards)
	case o.Pipeline < 1 || o.Pipeline > maxPipeline:
		if maxPipeline == 1 {
			return o, fmt.Errorf("pipeline %d: %s relays run one batch transaction per shard at a time (1)", o.Pipeline, dialectName)
		}
		return o, fmt.Errorf("pipeline %d: want 1 or %d", o.Pipeline, maxPipeline)
	case o.MaxAttempts < 1:
		return o, fmt.Errorf("max attempts %d: must be at least 1", o.MaxAttempts)
	case o.Failover < 2*time.Second:
		return o, fmt.Errorf("failover %s: must be at least 2s", o.Failover)
	case o.OnDeadLetter != "block" && o.OnDeadLetter != "skip":
		return o, fmt.Errorf("on-dead-letter %q: want block or skip", o.OnDeadLetter)
	case o.Notify != "auto" && o.Notify != "off":
		return o, fmt.Errorf("notify %q: want auto or off", o.Notify)
	case o.OutageRetryMax < 0:
		return o, fmt.Errorf("outage retry max %s: must not be negative", o.OutageRetryMax)
	case o.RetryMax < o.RetryBase:
		return o, fmt.Errorf("retry max %s is shorter than retry base %s", o.RetryMax, o.RetryBase)
	}
	return o, nil
}

// Relay moves outbox rows to the broker. Create it with New; run it with Run.
type Relay struct {
	store store
	pub   Publisher
	opts  Options
	log   *slog.Logger
	m     *Metrics
	fp    *failpoint
	owned []atomic.Bool // per shard: this relay held the shard's lock on its last round
	// deadSeen: per shard, a batch dead-lettered a row since the shard's
	// last block round (the rows behind it are to be blocked at once).
	deadSeen []atomic.Bool
}

func newRelay(s store, pub Publisher, opts Options) (*Relay, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	fp, err := parseFailpoint(opts.Failpoint)
	if err != nil {
		return nil, err
	}
	if dc, ok := pub.(duplicateCounter); ok {
		dc.countDuplicates(opts.Metrics.DuplicateAcks)
	}
	return &Relay{store: s, pub: pub, opts: opts, log: opts.Logger, m: opts.Metrics, fp: fp, owned: make([]atomic.Bool, opts.Shards),
		deadSeen: make([]atomic.Bool, opts.Shards)}, nil
}

// duplicateCounter is a publisher whose broker says when an ack is for a
// duplicate it dropped (JetStream's duplicate window): the relay counts
// them in outbox_relay_duplicate_acks_total.
type duplicateCounter interface{ countDuplicates(c interface{ Inc() }) }

// store is the database side of the relay; one implementation per dialect.
type store interface {
	// claim opens a batch transaction holding the lock of req's shard and
	// slot: ok is false when it could not be taken (nothing is claimed then).
	claim(ctx context.Context, req claimRequest) (tx batchTx, msgs []*Message, ok bool, err error)
	// listen starts waking the relay on notifications; it reports whether
	// notifications work (after a self-test), else the relay polls. gate,
	// when not nil, is held by a session of the store while a leader idles
	// (the trigger notifies only then).
	listen(ctx context.Context, wake func(), selfTest time.Duration, log *slog.Logger) (ok bool, gate *idleGate)
	stats(ctx context.Context) (Stats, error)
	cleanup(ctx context.Context, o CleanupOptions, log *slog.Logger) (CleanupResult, error)
	replay(ctx context.Context, f ReplayFilter, apply bool) (int64, error)
	// block takes the claimable rows of a shard (mod, rem as hashFilter's)
	// after seq from that have a dead letter earlier in their aggregate out
	// of the claim's index (blocked_at), at most blockBatch per statement;
	// top is the highest seq in the claim's index, read before.
	block(ctx context.Context, mod, rem int, from int64) (blocked, top int64, err error)
	// unblock puts back the blocked rows that no dead letter holds any more
	// (blockMode false: all of them).
	unblock(ctx context.Context, blockMode bool) (int64, error)
	ping(ctx context.Context) error
	close()
}

// blockBatch is how many rows one block or unblock statement changes.
const blockBatch = 10_000

// blockEvery is how often a shard's leader runs a block round for the rows
// written since the last rounds (a round after a dead letter covers the
// whole shard at once).
const blockEvery = 5 * time.Second

// blockState is a shard worker's record of its block rounds.
type blockState struct {
	full bool      // the next round covers the whole shard
	at   time.Time // when the last round ran
	// tops are the claim index's highest seq at the last two rounds; a
	// round covers the rows after the older one, so a row whose insert
	// committed late (after a later row's) is still seen by the round after.
	tops [2]int64
}

// blockHeld runs a block round on shard when one is due: the rows held back
// behind a dead letter leave the claim's index, so that a dead letter does
// not make every claim read the rows of its aggregate. The claim checks the
// dead letters itself, so a row not blocked yet is only read, never
// published out of order. It runs in the worker between claims: a round
// reads the rows written since the last ones (the whole shard after a dead
// letter).
func (r *Relay) blockHeld(ctx context.Context, shard int, st *blockState) {
	if r.deadSeen[shard].Swap(false) {
		st.full = true
	}
	if !st.full && time.Since(st.at) < blockEvery {
		return
	}
	from := st.tops[0]
	if st.full {
		from = 0
	}
	mod, rem := claimRequest{shard: shard, shards: r.opts.Shards, half: -1}.hashFilter()
	n, top, err := r.store.block(ctx, mod, rem, from)
	st.at = time.Now()
	if err != nil {
		if ctx.Err() == nil {
			r.log.Warn("outbox block round failed (the claim still holds those rows back)", "shard", shard, "err", err)
		}
		return
	}
	st.full = false
	st.tops = [2]int64{st.tops[1], top}
	if n > 0 {
		r.log.Info("outbox rows held behind dead letters taken out of the claim index", "shard", shard, "rows", n)
	}
}

// claimRequest says which rows a batch transaction may claim.
type claimRequest struct {
	// failover is Options.Failover: the batch session's server-side bound.
	failover      time.Duration
	shard, shards int
	limit         int
	blockOnDead   bool
	// slot is the pipeline slot (0 or 1) whose lock key the transaction
	// takes; a relay's batches in flight hold different slots.
	slot int
	// beside is this relay's batch in flight that the claim overlaps; the
	// claim passes only while that batch still holds the other slot's key.
	// nil (a fresh claim): none is in flight, and the other slot's key must
	// be free as well, or another relay still has a batch in flight and this
	// one must not start beside it (leadership passes only between batches).
	beside batchTx
	// exclude: the aggregates of this relay's batches in flight. Their later
	// rows wait until those batches commit, so that per aggregate a message
	// is published only after the one before it was acked and marked.
	exclude []aggregateKey
	// half (0 or 1) narrows the claim to one half of the shard's aggregates,
	// -1: the whole shard. On a backlog each pipeline slot claims its own
	// half, so the claim beside a batch in flight needs no exclusion: left to
	// skip the aggregates in flight, a claim read about seven rows for each
	// one it took (1,000 aggregates, batch 2,000), which cost PostgreSQL 3 µs
	// per message.
	half int
}

// hashFilter returns the claim's modulus and remainder on the row's
// aggregate hash: the shard, or one half of it. A half of shard s of N is
// hash % 2N = s + N*half, since (hash % 2N) % N = hash % N.
func (r claimRequest) hashFilter() (mod, rem int) {
	if r.half < 0 {
		return r.shards, r.shard
	}
	return 2 * r.shards, r.shard + r.half*r.shards
}

type aggregateKey struct{ typ, id string }

// batchTx is one open batch transaction.
type batchTx interface {
	// complete marks published rows, records failures and commits.
	complete(ctx context.Context, published []*Message, failures []failure) error
	// rollback abandons the batch; safe after complete.
	rollback()
}

// failure is what a failed publish changes on its row.
type failure struct {
	msg   *Message
	burn  bool          // count an attempt (a rejection, not an unreachable broker)
	dead  bool          // attempts exhausted: dead-letter the row
	delay time.Duration // next_attempt_at = now() + delay
	err   string        // last_error
}

// errHeldBack is the result of a message not sent because an earlier message
// of its aggregate failed in the same batch.
var errHeldBack = errors.New("held back behind a failed message of the same aggregate")

// errBrokerUnavailable ends a batch in which nothing could be published
// because the broker could not be reached; the batch was rolled back.
var errBrokerUnavailable = errors.New("broker unavailable: batch rolled back, nothing marked")

// Run relays until ctx ends, then finishes the batch in flight (or abandons
// it after ShutdownTimeout: rolled back, published again later) and returns.
func (r *Relay) Run(ctx context.Context) error {
	// work outlives ctx so that a graceful stop can finish the current batch.
	work, abandon := context.WithCancel(context.WithoutCancel(ctx))
	defer abandon()
	finished := make(chan struct{})
	go func() {
		select {
		case <-finished:
			return
		case <-ctx.Done():
		}
		r.log.Info("outbox relay stopping: finishing the current batch", "timeout", r.opts.ShutdownTimeout)
		t := time.NewTimer(r.opts.ShutdownTimeout)
		defer t.Stop()
		select {
		case <-finished:
		case <-t.C:
			r.log.Warn("outbox relay shutdown timeout: abandoning the current batch (rolled back; its messages are published again later)")
			abandon()
		}
	}()

	wakes := make([]chan struct{}, r.opts.Shards)
	for i := range wakes {
		wakes[i] = make(chan struct{}, 1)
	}
	wake := func() {
		for _, w := range wakes {
			select {
			case w <- struct{}{}:
			default:
			}
		}
	}
	// Rows blocked behind a dead letter that is gone (replayed by an older
	// relay, removed by hand) go back into the claim's index; in skip mode
	// every blocked row does.
	if n, err := r.store.unblock(ctx, r.opts.OnDeadLetter == "block"); err != nil {
		r.log.Warn("outbox: could not release rows blocked behind dead letters", "err", err)
	} else if n > 0 {
		r.log.Info("outbox rows blocked behind dead letters released", "rows", n)
	}
	notifying := false
	var gate *idleGate
	if r.opts.Notify != "off" {
		notifying, gate = r.store.listen(ctx, wake, r.opts.NotifyTimeout, r.log)
	}
	r.log.Info("outbox relay started", "table", Table, "shards", r.opts.Shards, "batch_size", r.opts.BatchSize,
		"notify", notifying, "poll_interval", r.opts.PollInterval, "on_dead_letter", r.opts.OnDeadLetter)

	var wg sync.WaitGroup
	if r.opts.CleanupEvery > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.cleanupLoop(ctx)
		}()
	}
	for shard := range r.opts.Shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.worker(ctx, work, shard, wakes[shard], gate)
		}()
	}
	wg.Wait()
	close(finished)
	r.m.Leader.Set(0)
	r.m.ShardsOwned.Set(0)
	r.log.Info("outbox relay stopped")
	return nil
}

// worker runs the batch loop of one shard until stop ends; work cancels the
// batches in flight. With Pipeline 2 the next batch is claimed while the
// current one is published: on a backlog the database's work and the
// broker's overlap; at a trickle, rows announced while a batch is in
// flight do not wait for its acks and commit.
//
// With gate (PostgreSQL, notifications on), a leader with nothing to claim
// enters the gate before it waits, and waits only once the idle lock has
// been held since its last claim began; otherwise it claims once more when
// the lock is granted. It leaves the gate when a claim finds rows or it
// stops leading.
func (r *Relay) worker(stop, work context.Context, shard int, wake <-chan struct{}, gate *idleGate) {
	type landed struct {
		slot int
		err  error
	}
	type flight struct {
		tx   batchTx
		aggs []aggregateKey
		half int
	}
	done := make(chan landed, 2)
	var slots [2]*flight // per slot: its batch in flight, nil when free
	n, failures := 0, 0
	// backlog: the last claim with no batch beside it was full, so more rows
	// are waiting. A claim beside a batch is short for another reason (it
	// leaves out the aggregates in flight) and does not change it.
	backlog := false
	// woken: a notification (or the poll) came after the last claim, so new
	// rows may be waiting beside the batch in flight.
	woken := false
	var lastClaim time.Time // start of the last claim, for the debounce
	var failed error
	blocking := blockState{full: true}
	settle := func(l landed) {
		slots[l.slot] = nil
		n--
		switch {
		case l.err != nil && work.Err() == nil:
			failed = l.err
		case l.err == nil && failed == nil:
			failures = 0
		}
	}
	land := func() { settle(<-done) }
	idling := false             // entered the gate
	var claimGen uint64         // the gate's grants when the last fresh claim began
	claimHeld := false          // the idle lock was held then
	var granted <-chan struct{} // with a gate not held since the claim: its next grant
	setIdle := func(on bool) {
		if gate != nil && on != idling {
			idling = on
			if on {
				gate.enter()
			} else {
				gate.leave()
			}
		}
	}
	defer setIdle(false)
	// wait until stop, the poll, or a notification (debounced); with
	// landing, also until a batch lands; with granted, also until the idle
	// lock is granted.
	wait := func(landing bool) {
		var landings <-chan landed
		if landing {
			landings = done
		}
		poll := r.opts.PollInterval
		if granted != nil {
			// Until the idle lock is granted producers may skip the
			// NOTIFY; should the grant not come (the gate's session cannot
			// connect), poll at least every second.
			poll = min(poll, time.Second)
		}
		timer := time.NewTimer(poll)
		defer timer.Stop()
		select {
		case <-stop.Done():
		case l := <-landings:
			settle(l)
		case <-granted:
			woken = true
		case <-timer.C:
			woken = true
		case <-wake:
			woken = true
			// Debounce: a burst of notifications makes one batch, not one per insert.
			if d := time.Until(lastClaim.Add(r.opts.NotifyDebounce)); d > 0 {
				sleep(stop, d)
			}
			select {
			case <-wake:
			default:
			}
		}
	}
	defer func() {
		for n > 0 {
			land()
		}
	}()
	for {
		for len(done) > 0 {
			land()
		}
		if stop.Err() != nil {
			return
		}
		if failed != nil {
			for n > 0 {
				land()
			}
			failures++
			d := backoff(r.opts.RetryBase, r.opts.OutageRetryMax, failures)
			r.log.Warn("outbox batch failed", "shard", shard, "err", failed, "retry_in", d)
			failed = nil
			sleep(stop, d)
			continue
		}
		if n >= r.opts.Pipeline {
			land()
			continue
		}
		if n == 1 && !backlog && !woken {
			// The batch in flight took all there was and nothing came since:
			// a claim beside it would find nothing, and each claim costs the
			// producers a transaction and a lock check.
			wait(true)
			continue
		}
		woken = false
		req := claimRequest{shard: shard, shards: r.opts.Shards, limit: r.opts.BatchSize,
			blockOnDead: r.opts.OnDeadLetter == "block", half: -1, failover: r.opts.Failover}
		if slots[0] != nil {
			req.slot = 1
		}
		if backlog && r.opts.Pipeline > 1 {
			req.half = req.slot
		}
		if f := slots[1-req.slot]; f != nil {
			req.beside = f.tx
			if req.half < 0 || f.half != 1-req.half {
				req.exclude = f.aggs // not the other half: may share aggregates
			}
		}
		fresh := req.beside == nil
		started := time.Now()
		lastClaim = started
		if gate != nil && fresh {
			claimGen, claimHeld, _ = gate.state()
		}
		granted = nil
		tx, msgs, held, err := r.store.claim(work, req)
		if fresh && err == nil {
			backlog = len(msgs) >= r.opts.BatchSize
		}
		if fresh || held {
			// An overlap claim can miss its key for a moment (another
			// relay probing); only a fresh claim says who leads.
			r.setOwned(shard, held)
		}
		if err != nil {
			if work.Err() != nil {
				return
			}
			failed = fmt.Errorf("claim batch of shard %d: %w", shard, err)
			continue
		}
		if len(msgs) == 0 && failed == nil {
			failures = 0 // the database answers and nothing failed meanwhile
		}
		if fresh && held && req.blockOnDead {
			r.blockHeld(work, shard, &blocking)
		}
		if fresh && (!held || len(msgs) > 0) {
			setIdle(false) // busy, or not leading: producers need not notify for it
		}
		if len(msgs) > 0 {
			slots[req.slot] = &flight{tx, aggregatesOf(msgs), req.half}
			n++
			go func(slot int) {
				err := r.runBatch(work, shard, tx, msgs, started)
				done <- landed{slot, err}
			}(req.slot)
		}
		if held && len(msgs) >= r.opts.BatchSize {
			continue // a full batch: more rows are waiting
		}
		if fresh && req.half >= 0 {
			continue // this half ran short: the next claim takes the whole shard
		}
		if !fresh {
			// Short beside a batch in flight: the rest may belong to its
			// aggregates. Claim again once a batch has landed, or beside it
			// when new rows are announced.
			if n > 0 {
				wait(true)
			}
			continue
		}
		// Everything claimable was claimed (or another relay leads): wait
		// for a notification or the poll. A batch in flight does not hold
		// up what comes meanwhile: the next claim goes beside it (without
		// its aggregates), so a slow ack or commit does not delay the rows
		// of other aggregates.
		if gate != nil && held {
			if len(msgs) > 0 {
				// Rows are coming: claim again shortly instead of waiting for
				// a notification, which producers send only while a relay
				// idles. A claim that finds nothing makes the leader idle.
				if d := time.Until(lastClaim.Add(r.opts.NotifyDebounce)); d > 0 {
					sleep(stop, d)
				}
				woken = true
				continue
			}
			setIdle(true)
			gen, lockHeld, next := gate.state()
			switch {
			case lockHeld && claimHeld && gen == claimGen:
				// Held since before the claim: every insert it did not see
				// notifies.
			case lockHeld:
				// Granted during the claim: producers that skipped the
				// NOTIFY before the grant have committed; claim once more.
				woken = true
				continue
			default:
				granted = next // claim once more when the lock is granted
			}
		}
		wait(false)
	}
}

func aggregatesOf(msgs []*Message) []aggregateKey {
	seen := make(map[aggregateKey]bool, len(msgs))
	var out []aggregateKey
	for _, m := range msgs {
		k := aggregateKey{m.AggregateType, m.AggregateID}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// runBatch finishes one claimed batch transaction: publish in per-aggregate
// waves, wait for the acks, mark the acked rows published, record failures,
// commit.
func (r *Relay) runBatch(ctx context.Context, shard int, tx batchTx, msgs []*Message, start time.Time) error {
	defer tx.rollback()

	// The publish waits end within three quarters of Failover: the server
	// ends a batch session idle for Failover, and the rest is left for
	// marking. Messages not acked by then are retried (no attempt used).
	pctx, cancel := context.WithTimeout(ctx, publishBudget(r.opts.Failover))
	errs := r.publishWaves(pctx, msgs)
	cancel()
	if ctx.Err() != nil {
		return fmt.Errorf("batch abandoned, rolled back: %w", ctx.Err())
	}

	published := make([]*Message, 0, len(msgs))
	var fails []failure
	var rejected, unavailable, dead int
	for i, m := range msgs {
		e := errs[i]
		switch {
		case e == nil:
			published = append(published, m)
		case errors.Is(e, errHeldBack):
			// untouched: it waits behind the failed message of its aggregate
		case IsUnavailable(e):
			unavailable++
			fails = append(fails, failure{msg: m, delay: backoff(r.opts.RetryBase, r.opts.OutageRetryMax, 1), err: errText(e)})
		default:
			rejected++
			attempts := m.Attempts + 1
			f := failure{msg: m, burn: true, err: errText(e), delay: backoff(r.opts.RetryBase, r.opts.RetryMax, attempts)}
			if attempts >= r.opts.MaxAttempts {
				// No retry is due: a dead letter waits for replay, and in skip
				// mode the later rows of its aggregate must not wait out a
				// backoff that will never be used.
				f.dead, f.delay = true, 0
				dead++
				r.log.Error("outbox message dead-lettered", "id", m.ID, "aggregate_type", m.AggregateType,
					"aggregate_id", m.AggregateID, "attempts", attempts, "err", e)
			} else {
				r.log.Warn("outbox message rejected by the broker", "id", m.ID, "aggregate_type", m.AggregateType,
					"aggregate_id", m.AggregateID, "attempts", attempts, "retry_in", f.delay, "err", e)
			}
			fails = append(fails, f)
		}
	}
	if unavailable > 0 {
		r.m.Failed.WithLabelValues("unavailable").Add(float64(unavailable))
	}
	if rejected > 0 {
		r.m.Failed.WithLabelValues("rejected").Add(float64(rejected))
	}
	if len(published) == 0 && rejected == 0 && unavailable > 0 {
		// Nothing got through: leave the rows as they were (no attempt used).
		return fmt.Errorf("%w: %v", errBrokerUnavailable, firstError(errs))
	}
	if len(published) > 0 && r.fp != nil {
		r.fp.reached(r.log, len(published))
	}
	if err := tx.complete(ctx, published, fails); err != nil {
		return fmt.Errorf("mark %d messages published (they will be published again): %w", len(published), err)
	}
	r.m.Published.Add(float64(len(published)))
	r.m.DeadLettered.Add(float64(dead))
	if dead > 0 {
		r.deadSeen[shard].Store(true)
	}
	r.m.BatchDuration.Observe(time.Since(start).Seconds())
	r.log.Debug("outbox batch committed", "shard", shard, "claimed", len(msgs), "published", len(published),
		"rejected", rejected, "unavailable", unavailable, "duration", time.Since(start))
	return nil
}

// publishBudget is how long a batch's publish waits may take in all.
func publishBudget(failover time.Duration) time.Duration { return failover * 3 / 4 }

// publishWaves publishes msgs (in insert order) so that per aggregate each
// message is sent only after the previous one was acked: wave k holds the
// k-th message of every aggregate in the batch. When a message fails, the
// later messages of its aggregate are held back (errHeldBack).
func (r *Relay) publishWaves(ctx context.Context, msgs []*Message) []error {
	errs := make([]error, len(msgs))
	count := make(map[aggregateKey]int, len(msgs))
	var waves [][]int
	for i, m := range msgs {
		k := aggregateKey{m.AggregateType, m.AggregateID}
		w := count[k]
		count[k] = w + 1
		if w == len(waves) {
			waves = append(waves, nil)
		}
		waves[w] = append(waves[w], i)
	}
	failed := map[aggregateKey]bool{}
	wave := make([]*Message, 0, len(waves[0]))
	idx := make([]int, 0, len(waves[0]))
	for _, w := range waves {
		wave, idx = wave[:0], idx[:0]
		for _, i := range w {
			m := msgs[i]
			if failed[aggregateKey{m.AggregateType, m.AggregateID}] {
				errs[i] = errHeldBack
				continue
			}
			if m.decodeErr != nil {
				errs[i] = m.decodeErr
				failed[aggregateKey{m.AggregateType, m.AggregateID}] = true
				continue
			}
			wave = append(wave, m)
			idx = append(idx, i)
		}
		if len(wave) == 0 {
			continue
		}
		res := r.publish(ctx, wave)
		if len(wave) > 1 {
			r.republishRejected(ctx, wave, res)
		}
		for j, i := range idx {
			errs[i] = res[j]
			if res[j] != nil {
				failed[aggregateKey{msgs[i].AggregateType, msgs[i].AggregateID}] = true
			}
		}
		if ctx.Err() != nil {
			return fillErrors(errs, ctx.Err())
		}
	}
	return errs
}

// publish sends one wave within PublishTimeout and returns one result per
// message.
func (r *Relay) publish(ctx context.Context, wave []*Message) []error {
	wctx, cancel := context.WithTimeout(ctx, r.opts.PublishTimeout)
	defer cancel()
	res := r.pub.Publish(wctx, wave)
	out := make([]error, len(wave))
	for j := range out {
		if j < len(res) {
			out[j] = res[j]
		} else {
			out[j] = errors.New("publisher returned fewer results than messages")
		}
	}
	return out
}

// republishRejected publishes each rejected message of a wave again, alone,
// one at a time, and replaces its result. Clients that batch (Kafka produce
// batches, SQS batch calls) can have a whole batch refused for one message
// in it (a topic's max message size below the batch size): the other
// messages in that batch were not at fault and must not use up attempts or
// be dead-lettered with it. Only what the broker rejects alone counts as
// rejected. Nothing else of their aggregates was sent in this wave, so
// per-aggregate order holds.
func (r *Relay) republishRejected(ctx context.Context, wave []*Message, res []error) {
	rejected := 0
	for _, e := range res {
		if e != nil && !IsUnavailable(e) {
			rejected++
		}
	}
	if rejected == 0 {
		return
	}
	r.log.Debug("outbox wave had rejections: publishing each rejected message alone", "wave", len(wave), "rejected", rejected)
	for j, m := range wave {
		if e := res[j]; e == nil || IsUnavailable(e) {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		res[j] = r.publish(ctx, []*Message{m})[0]
	}
}

func (r *Relay) setOwned(shard int, held bool) {
	if r.owned[shard].Swap(held) != held {
		if held {
			r.log.Info("outbox relay lock acquired", "shard", shard, "shards", r.opts.Shards)
		} else {
			r.log.Info("outbox relay lock held by another relay", "shard", shard, "shards", r.opts.Shards)
		}
	}
	n := 0
	for i := range r.owned {
		if r.owned[i].Load() {
			n++
		}
	}
	r.m.ShardsOwned.Set(float64(n))
	if r.opts.Shards == 1 {
		r.m.Leader.Set(float64(n))
	}
}

func (r *Relay) cleanupLoop(ctx context.Context) {
	t := time.NewTicker(r.opts.CleanupEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		res, err := runCleanup(ctx, r.store, r.opts.Cleanup, r.log)
		r.m.CleanedUp.WithLabelValues("outbox").Add(float64(res.OutboxDeleted))
		r.m.CleanedUp.WithLabelValues("inbox").Add(float64(res.InboxDeleted))
		if err != nil && ctx.Err() == nil {
			r.log.Warn("scheduled outbox cleanup failed", "err", err)
			continue
		}
		r.log.Info("scheduled outbox cleanup", "outbox_deleted", res.OutboxDeleted, "inbox_deleted", res.InboxDeleted)
	}
}

// runCleanup runs the store's cleanup, then releases the rows blocked behind
// a dead letter that is gone (a replay by an older relay, a row removed by
// hand): the relay that blocked them would not look at them again.
func runCleanup(ctx context.Context, s store, o CleanupOptions, log *slog.Logger) (CleanupResult, error) {
	res, err := s.cleanup(ctx, o, log)
	if err != nil {
		return res, err
	}
	n, err := s.unblock(ctx, true)
	if n > 0 && log != nil {
		log.Info("outbox rows blocked behind dead letters released", "rows", n)
	}
	return res, err
}

// backoff returns the delay before retry number attempt (1-based):
// base·2^(attempt-1) capped at max, half of it random (jitter), so relays
// and messages that failed together do not retry together.
func backoff(base, max time.Duration, attempt int) time.Duration {
	d := max
	if attempt < 1 {
		attempt = 1
	}
	if attempt <= 32 {
		if v := base << (attempt - 1); v > 0 && v < max {
			d = v
		}
	}
	half := d / 2
	return half + rand.N(half+1)
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

func errText(err error) string {
	s := err.Error()
	if len(s) > 2000 {
		s = s[:2000]
	}
	return strings.ToValidUTF8(s, "?")
}

func firstError(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// failpoint is the OUTBOX_RELAY_FAILPOINT test hook; nil when unset.
type failpoint struct {
	action string // pause | exit
	at     int64  // trigger on this batch that published something
	seen   atomic.Int64
}

func parseFailpoint(s string) (*failpoint, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "after-publish" || (parts[1] != "pause" && parts[1] != "exit") {
		return nil, fmt.Errorf("failpoint %q: want after-publish:pause or after-publish:exit, optionally :N", s)
	}
	fp := &failpoint{action: parts[1], at: 1}
	if len(parts) == 3 {
		n, err := strconv.ParseInt(parts[2], 10, 64)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("failpoint %q: batch number must be a positive integer", s)
		}
		fp.at = n
	}
	return fp, nil
}

// reached runs after the broker acked a batch and before it is marked.
func (f *failpoint) reached(log *slog.Logger, published int) {
	if f.seen.Add(1) != f.at {
		return
	}
	fmt.Fprintf(os.Stderr, "outbox-relay: failpoint after-publish reached: %d messages acked, not marked (pid %d, action %s)\n", published, os.Getpid(), f.action)
	log.Error("failpoint after-publish reached", "published", published, "action", f.action)
	if f.action == "exit" {
		os.Exit(3)
	}
	for {
		time.Sleep(time.Hour) // paused until the test kills the process
	}
}
