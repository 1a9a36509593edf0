package dualwrite

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
)

// summarize turns the events of one function into what its callers see.
func (c *collector) summarize() *Effects {
	out := Effects{Relay: c.relay}
	dead := deadCode(c.info, c.body)
	for i := range c.events {
		ev := &c.events[i]
		if dead.has(ev.pos) {
			continue // after a return or a panic in its block: never runs
		}
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

// spans are source ranges.
type spans [][2]token.Pos

func (s spans) has(p token.Pos) bool {
	for _, r := range s {
		if r[0] <= p && p < r[1] {
			return true
		}
	}
	return false
}

// deadCode lists the statements of body (closures aside) that follow a
// return or a panic in their block: code left after a stub's early return
// (AppendLog() { return nil; ...; repo.SaveLog(l) }) does not run.
func deadCode(info *types.Info, body *ast.BlockStmt) spans {
	if body == nil {
		return nil
	}
	var out spans
	ast.Inspect(body, func(n ast.Node) bool {
		switch b := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			for i, st := range b.List[:max(len(b.List)-1, 0)] {
				if terminates(info, st) {
					out = append(out, [2]token.Pos{b.List[i+1].Pos(), b.End()})
					break
				}
			}
		}
		return true
	})
	return out
}

// terminates: a return, or a call of the builtin panic.
func terminates(info *types.Info, st ast.Stmt) bool {
	switch s := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		b, ok := info.Uses[id].(*types.Builtin)
		return ok && b.Name() == "panic"
	}
	return false
}
