package dualwrite

// Handle positions an Effect's DB handle can take, seen from the caller.
const (
	HandleInternal = -1 // a handle the function gets itself (a global, a field of another value, a Begin)
	HandleRecv     = -2 // the receiver, or a field of it (sqlc Queries bound by WithTx)
	// 0..n: the parameter at that index
)

// Effect is one thing a function does to a store or a broker, possibly
// through calls: the catalog call it reaches and the chain that reaches it.
type Effect struct {
	Name         string   // catalog full name at the end of the chain
	Via          []string // functions called on the way, outermost first (empty when direct)
	ViaInterface bool     // the chain went through an interface method resolved to an implementation, a dispatcher whose handlers were registered elsewhere in the program, or a channel a goroutine elsewhere drains (CLI only)
	Store        string   // writes: store of record
	Broker       string   // publishes: broker
	Handle       int      // writes and outbox inserts: which handle, see HandleInternal
	Committed    bool     // writes: the function committed its own transaction around the write
	InTx         bool     // writes: the write ran on a transaction handle
	Covered      bool     // writes: an outbox row was inserted in the same transaction; outbox inserts: so was a write
	Leaf         string   // "file:line" of the catalog call, for messages
	// Worker: reached inside an endless loop (a background worker's body);
	// a caller that starts it with go does not run it on its own path.
	Worker bool
	// Async (writes): made only in a goroutine the function starts (go, or
	// a helper that runs its closure in one): not on a caller's path to a
	// publish it makes after the call.
	Async bool
	// SQLArg (Effects.Query only): the index of the parameter whose SQL
	// text the function runs as a query.
	SQLArg int
	// Alt: the interface method whose implementations split into writers
	// and publishers (a queue with a database-backed alternative): such a
	// write and publish, reached on the same value, are alternatives.
	Alt string
	// Unit (writes): made through a unit-of-work accessor (outbox.SQL, ...):
	// inside a caller's outbox.Run callback it is on the unit's transaction.
	Unit bool
	// Guarded (publishes): the direct path of outbox.Enqueue: inside a
	// caller's outbox.Run callback it is an outbox row on the unit's
	// transaction, outside one the publish itself.
	Guarded bool
	// Hops (publishes): channel hand-offs on the way (a send on a channel
	// a goroutine drains into the publish); at most maxChanHops are followed.
	Hops int
	// First (publishes): made before the function's first write (publish,
	// then write, as an enqueue wrapper that records the task after it
	// queued it): the publish announces no write of the function's, so a
	// caller's later write is the partner it may precede.
	First bool
	// CtxTx (writes): the write joins the transaction its context carries
	// (catalog.Entry.CtxTx): inside a transaction callback it is on the
	// callback's transaction.
	CtxTx bool
}

// Effects summarises a function for its callers.
type Effects struct {
	Write   *Effect // first DB write reached
	Publish *Effect // first broker publish reached
	Outbox  *Effect // first outbox insert reached
	// Query: the function runs, as a query, SQL text its caller passes in
	// parameter Query.SQLArg (a tracing or retrying DB wrapper: d.db.
	// NamedQueryContext(ctx, query, args)). The caller's constant SQL
	// decides: INSERT ... RETURNING through the wrapper writes.
	Query *Effect
	// Relay: the function reads, marks or deletes outbox rows (itself or in
	// a callee): relay work, whose publishes are its job. Its callers are
	// relays too (the claim is usually a store method a few calls away from
	// the loop that publishes).
	Relay bool
}

func (e *Effects) empty() bool {
	return e == nil || e.Write == nil && e.Publish == nil && e.Outbox == nil && e.Query == nil && !e.Relay
}

func (e *Effects) equal(o *Effects) bool {
	if e.empty() || o.empty() {
		return e.empty() == o.empty()
	}
	return e.Relay == o.Relay && sameEffect(e.Write, o.Write) && sameEffect(e.Publish, o.Publish) && sameEffect(e.Outbox, o.Outbox) && sameEffect(e.Query, o.Query)
}

func sameEffect(a, b *Effect) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Name == b.Name && len(a.Via) == len(b.Via) && a.Handle == b.Handle && a.Committed == b.Committed && a.Covered == b.Covered && a.InTx == b.InTx && a.Worker == b.Worker && a.Async == b.Async && a.SQLArg == b.SQLArg && a.Alt == b.Alt && a.First == b.First && a.Hops == b.Hops
}

// FuncFact is exported for functions and methods that (transitively) write
// to a store, publish to a broker or insert an outbox row.
type FuncFact struct{ Effects }

func (*FuncFact) AFact() {}

func (f *FuncFact) String() string {
	s := "effects"
	if f.Write != nil {
		s += " write:" + f.Write.Name
	}
	if f.Publish != nil {
		s += " publish:" + f.Publish.Name
	}
	if f.Outbox != nil {
		s += " outbox:" + f.Outbox.Name
	}
	if f.Relay {
		s += " relay"
	}
	return s
}

// relevantFact marks a package that imports a DB or broker client, directly
// or through another relevant package; packages without it are skipped.
type relevantFact struct{}

func (*relevantFact) AFact()         {}
func (*relevantFact) String() string { return "relevant" }

// maxVia bounds recorded chains (deeper wrappers still propagate).
const maxVia = 8

// through returns e as seen by a caller that reached it by calling fn.
func (e *Effect) through(fn string, iface bool, handle int) *Effect {
	out := *e
	via := make([]string, 0, len(e.Via)+1)
	via = append(via, fn)
	via = append(via, e.Via...)
	if len(via) > maxVia {
		via = via[:maxVia]
	}
	out.Via = via
	out.ViaInterface = e.ViaInterface || iface
	out.Handle = handle
	return &out
}

// reaches reports whether any effect's chain passes through fn.
func (e *Effects) reaches(fn string) bool {
	for _, x := range []*Effect{e.Write, e.Publish, e.Outbox, e.Query} {
		if x != nil && x.via(fn) {
			return true
		}
	}
	return false
}

func (e *Effect) via(fn string) bool {
	for _, v := range e.Via {
		if v == fn {
			return true
		}
	}
	return false
}

// acyclic drops an effect whose chain passes through fn (a cycle back into
// the function being summarised, or into the interface being resolved).
func acyclic(e *Effect, fn string) *Effect {
	if e != nil && e.via(fn) {
		return nil
	}
	return e
}
