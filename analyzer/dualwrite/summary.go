package dualwrite

import (
	"go/token"
	"path/filepath"
	"strconv"
)

// summarize turns the events of one function into what its callers see.
func (c *collector) summarize() *Effects {
	out := Effects{Relay: c.relay}
	for i := range c.events {
		ev := &c.events[i]
		switch ev.kind {
		case evWrite:
			async := ev.async == asyncGo
			// a write outside the unit of work after one through its
			// accessor: a caller's unit does not hold it (a rewrite that
			// lost one accessor of two)
			escapes := out.Write != nil && out.Write.Unit && !ev.eff.Unit && !(async && !out.Write.Async)
			if out.Write != nil && (!out.Write.Covered || c.covered(ev)) && !(out.Write.Async && !async) && !escapes {
				continue // the first write, but one on the caller's path over one in a goroutine
			}
			e := *ev.eff
			e.Handle = c.paramHandle(ev.handle, ev.base)
			e.InTx = ev.inTx
			if ev.inTx && e.Handle == HandleInternal && (ev.scope != nil || c.commits(ev)) {
				e.Committed = true
			}
			e.Covered = ev.eff.Covered || c.covered(ev)
			e.Leaf = c.leaf(ev)
			e.Worker = ev.worker
			e.Async = async
			out.Write = &e
		case evPublish:
			// an unguarded publish wins over a guarded one: inside a
			// caller's unit it is still a publish
			if out.Publish != nil && !(out.Publish.Guarded && !ev.eff.Guarded) || ev.errPath || c.relay {
				continue
			}
			e := *ev.eff
			e.Leaf = c.leaf(ev)
			e.Worker = ev.worker
			before, after := false, false
			for j := range c.events {
				if w := &c.events[j]; w.kind == evWrite && !w.errPath {
					before = before || w.pos < ev.pos
					after = after || w.pos > ev.pos
				}
			}
			e.First = !before && (after || ev.eff.First)
			out.Publish = &e
		case evQuery:
			if out.Query != nil {
				continue
			}
			e := *ev.eff
			e.Handle = c.paramHandle(ev.handle, ev.base)
			e.Leaf = c.leaf(ev)
			out.Query = &e
		case evOutbox:
			if out.Outbox != nil {
				continue
			}
			e := *ev.eff
			e.Handle = c.paramHandle(ev.handle, ev.base)
			e.Leaf = c.leaf(ev)
			for j := range c.events {
				if w := &c.events[j]; w.kind == evWrite && sameTx(w, ev) {
					e.Covered = true // the row shares its transaction with a write
				}
			}
			out.Outbox = &e
		}
	}
	if out.empty() {
		return nil
	}
	return &out
}

func (c *collector) leaf(ev *event) string {
	if ev.eff.Leaf != "" {
		return ev.eff.Leaf
	}
	return shortPos(c.fset.Position(ev.pos))
}

func shortPos(p token.Position) string {
	return filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// covered reports whether an outbox row is inserted in the same transaction as write w.
func (c *collector) covered(w *event) bool {
	if w.eff.Covered {
		return true
	}
	for i := range c.events {
		o := &c.events[i]
		if o.kind == evOutbox && (sameTx(w, o) || unknownHandle(o)) {
			return true
		}
	}
	return false
}

// unknownHandle: an outbox insert whose handle cannot be followed (a
// transaction carried in a context, returned by a helper): the code uses an
// outbox, and nothing shows it is on another transaction.
func unknownHandle(o *event) bool { return o.handle == nil && o.scope == nil && !o.eff.ViaInterface }

func sameTx(w, o *event) bool {
	if !w.inTx {
		return false
	}
	if w.scope != nil && w.scope == o.scope {
		return true
	}
	return w.handle != nil && w.handle == o.handle
}

// commits reports whether the transaction of write w is committed in this function.
func (c *collector) commits(w *event) bool {
	for i := range c.events {
		if cm := &c.events[i]; cm.kind == evCommit && commitsTx(cm, w) {
			return true
		}
	}
	return false
}

func commitsTx(cm, w *event) bool {
	if w.scope != nil {
		return cm.scope == w.scope && cm.handle == nil
	}
	return w.handle != nil && cm.handle == w.handle
}
