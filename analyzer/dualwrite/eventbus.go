package dualwrite

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// In-process event buses keyed by the event (CLI). A domain raises
// events on a library bus (eventbus.Dispatch(&events.AccountLogPushEvent{
// ...})) and the program's wiring subscribed listeners for each event
// type at start-up (eventbus.SubscribeAsync(events.AccountLogPushEvent{},
// h.OnAccountLog)), one of which pushes to NATS. The dispatch is then the
// publish of the listeners registered for its event's type (or constant
// topic), made in a goroutine for those subscribed async. The buses are a
// catalog table (catalog.EventBuses); the registrations may be anywhere in
// the program: CLI only.

// busListener is one listener registered on a bus for an event key.
type busListener struct {
	fieldVal
	async bool
}

// busKey names what a bus keys its listeners by: the constant topic, or
// the type of the event value (a pointer's element: Subscribe(X{}) and
// Dispatch(&X{}) meet).
func busKey(info *types.Info, x ast.Expr) string {
	if tv, ok := info.Types[x]; ok && tv.Value != nil {
		return "topic " + tv.Value.ExactString()
	}
	t := info.TypeOf(x)
	if t == nil {
		return ""
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if types.IsInterface(t) {
		return "" // the event's type is only known at run time
	}
	return "type " + types.TypeString(t, nil)
}

// busCall finds the catalog's bus API a call belongs to: the bus index and
// the subscribe row, or (with sub nil) the dispatch.
func busCall(fn *types.Func) (bus int, sub *catalog.BusSubscribe, dispatch bool) {
	name := fn.Origin().FullName()
	for i := range catalog.EventBuses {
		b := &catalog.EventBuses[i]
		for j := range b.Subscribe {
			if b.Subscribe[j].Name == name {
				return i, &b.Subscribe[j], false
			}
		}
		for _, d := range b.Dispatch {
			if d == name {
				return i, nil, true
			}
		}
	}
	return -1, nil, false
}

// noteBusListener records the listener a call subscribes on a catalogued
// event bus.
func (r *programResolver) noteBusListener(p *packages.Package, body *ast.BlockStmt, call *ast.CallExpr, fn *types.Func) {
	bus, sub, _ := busCall(fn)
	if sub == nil || sub.Event >= len(call.Args) || sub.Listener >= len(call.Args) {
		return
	}
	key := busKey(p.TypesInfo, call.Args[sub.Event])
	if key == "" {
		return
	}
	k := busKeyOf{bus, key}
	r.busListeners[k] = append(r.busListeners[k], busListener{fieldVal: fieldVal{expr: call.Args[sub.Listener], pkg: p, body: body}, async: sub.Async})
}

type busKeyOf struct {
	bus int
	key string
}

// BusEffects implements the analyzer's view of busEffects (locked,
// settled like Effects).
func (r *programResolver) BusEffects(bus int, key string) (sync, async *Effects) {
	both := settled(r, func() [2]*Effects { s, a := r.busEffects(bus, key); return [2]*Effects{s, a} })
	return both[0], both[1]
}

// busEffects is what a dispatch of an event with key runs: the listeners
// called before it returns, and those called in goroutines (the first
// write and publish of each kind, as for an interface's implementations).
func (r *programResolver) busEffects(bus int, key string) (sync, async *Effects) {
	var s, a Effects
	for _, l := range r.busListeners[busKeyOf{bus, key}] {
		e := r.valueEffects(l.fieldVal, l.expr, 0)
		if l.async {
			a.addFirst(e)
		} else {
			s.addFirst(e)
		}
	}
	if !s.empty() {
		sync = &s
	}
	if !a.empty() {
		async = &a
	}
	return sync, async
}

// busDispatch: a dispatch on a catalogued event bus does what the
// listeners subscribed for its event do; true when the call was one.
func (c *collector) busDispatch(call *ast.CallExpr, fn *types.Func, wc wctx) bool {
	if c.busEffects == nil {
		return false
	}
	bus, _, dispatch := busCall(fn)
	if !dispatch || catalog.EventBuses[bus].Event >= len(call.Args) {
		return false
	}
	for _, a := range call.Args {
		c.walk(a, wc)
	}
	key := busKey(c.info, call.Args[catalog.EventBuses[bus].Event])
	if key == "" {
		return true
	}
	sync, async := c.busEffects(bus, key)
	name := fn.Origin().FullName()
	if sync != nil {
		c.effectsAt(call, name, false, sync, true, wc)
	}
	if async != nil {
		w := wc
		if w.async == syncCall {
			w.async, w.asyncNode = asyncGo, call // the bus starts the listener's goroutine
		}
		c.effectsAt(call, name, false, async, true, w)
	}
	return true
}
