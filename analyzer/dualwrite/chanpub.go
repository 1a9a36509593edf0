package dualwrite

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// Publishes handed to a goroutine over a channel field (CLI). An emitter
// often queues its events on a buffered channel that a goroutine started
// at construction drains and publishes (for ev := range e.queue {
// handler.Handle(ev) }): the send is then the publish, made after the
// request's write as surely as a direct call would be. The resolver
// indexes every receive of a value from a channel-typed struct field
// (range with a variable, or x := <-f), and a send on that field does
// the publish the receiving function does. Signals (chan struct{}, a
// receive whose value is dropped) are not indexed. Like func-typed
// fields, the constructor and the drain may be anywhere: CLI only.

// chanRecv is one function that takes values off a channel field.
type chanRecv struct {
	fn  *types.Func  // the declared function holding the receive, or
	lit *ast.FuncLit // the closure holding it (go func() { for ... }())
	pkg *packages.Package
	// body: what handles the value, when the receive has its own block (a
	// select case, a range loop's body); nil: the rest of the function.
	// A select over several channels does something else with each.
	body *ast.BlockStmt
	val  *types.Var // the value received into body, when named
}

// chanBind: a channel passed as argument i of fn (producer.Start(ctx,
// b.kafkaChan)): what fn's parameter carries, the channel carries.
type chanBind struct {
	fn *types.Func
	i  int
}

// indexChanRecvs records the receives of a package's functions from
// channel-typed fields, and where a field's channel goes: passed to a
// function (chanBinds) or a parameter stored in a field (chanFlows), so a
// producer started with the service's channel (Start(ctx, ch) keeping ch
// in its own field and ranging over it in a goroutine) is found too.
func (r *programResolver) indexChanRecvs(p *packages.Package) {
	info := p.TypesInfo
	chanVar := func(v *types.Var) bool {
		ch, ok := underChan(v.Type())
		if !ok {
			return false
		}
		// not a signal or a reply: chan struct{}, chan bool, chan error
		// (errCh <- err wakes the request that waits for its result)
		if types.Identical(ch.Elem(), types.Universe.Lookup("error").Type()) {
			return false
		}
		if b, ok := ch.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
			return false
		}
		st, ok := ch.Elem().Underlying().(*types.Struct)
		return !ok || st.NumFields() > 0
	}
	chanField := func(x ast.Expr) *types.Var {
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		s := info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return nil
		}
		if v, ok := s.Obj().(*types.Var); ok && chanVar(v) {
			return v
		}
		return nil
	}
	var walk func(n ast.Node, at chanRecv, async bool)
	walk = func(n ast.Node, at chanRecv, async bool) {
		local := map[*types.Var]*types.Var{}     // ch := c.publishChannel: the field ch holds
		clauseRecv := map[*ast.AssignStmt]bool{} // case v := <-f: recorded with its clause
		// the channel x is: a field, a local holding a field, or a parameter
		source := func(x ast.Expr) *types.Var {
			if v := chanField(x); v != nil {
				return v
			}
			id, ok := ast.Unparen(x).(*ast.Ident)
			if !ok {
				return nil
			}
			v, ok := info.Uses[id].(*types.Var)
			if !ok || !chanVar(v) {
				return nil
			}
			if f := local[v]; f != nil {
				return f
			}
			return v
		}
		recvd := func(x ast.Expr) *types.Var {
			if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				return source(u.X)
			}
			return nil
		}
		ast.Inspect(n, func(n ast.Node) bool {
			var v *types.Var
			switch x := n.(type) {
			case *ast.FuncLit:
				walk(x.Body, chanRecv{lit: x, pkg: p}, async)
				return false
			case *ast.GoStmt:
				if lit, ok := ast.Unparen(x.Call.Fun).(*ast.FuncLit); ok {
					for _, a := range x.Call.Args {
						walk(a, at, async)
					}
					walk(lit.Body, chanRecv{lit: lit, pkg: p}, true)
					return false
				}
			case *ast.SendStmt:
				if v := source(x.Chan); v != nil {
					r.chanSends[v] = r.chanSends[v] || !async
				}
			case *ast.RangeStmt:
				if x.Key != nil {
					if v = source(x.X); v != nil {
						in := at
						in.body, in.val = x.Body, identVar(info, x.Key)
						r.chanRecvs[v] = append(r.chanRecvs[v], in)
						v = nil
					}
				}
			case *ast.CommClause:
				if as, ok := x.Comm.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
					if v = recvd(as.Rhs[0]); v != nil {
						in := at
						in.body, in.val = &ast.BlockStmt{Lbrace: x.Colon, List: x.Body}, identVar(info, as.Lhs[0])
						r.chanRecvs[v] = append(r.chanRecvs[v], in)
						clauseRecv[as] = true
						v = nil
					}
				}
			case *ast.AssignStmt:
				if len(x.Rhs) == 1 && !clauseRecv[x] {
					v = recvd(x.Rhs[0])
				}
				if len(x.Lhs) == len(x.Rhs) {
					for i, l := range x.Lhs {
						if f := chanField(l); f != nil {
							// c.publishChannel = ch: what ch carries, the field carries
							if src := source(x.Rhs[i]); src != nil && src != f {
								r.chanFlows[src] = append(r.chanFlows[src], f)
							}
						} else if id, ok := l.(*ast.Ident); ok {
							lv, _ := info.Defs[id].(*types.Var)
							if lv == nil {
								lv, _ = info.Uses[id].(*types.Var)
							}
							if lv != nil {
								if f := chanField(x.Rhs[i]); f != nil {
									local[lv] = f
								}
							}
						}
					}
				}
			case *ast.ValueSpec:
				if len(x.Values) == 1 {
					v = recvd(x.Values[0])
				}
			case *ast.KeyValueExpr:
				// &stage{notif: notif}: what the value carries, the field carries
				if id, ok := x.Key.(*ast.Ident); ok {
					if f, ok := info.Uses[id].(*types.Var); ok && f.IsField() && chanVar(f) {
						if src := source(x.Value); src != nil && src != f {
							r.chanFlows[src] = append(r.chanFlows[src], f)
						}
					}
				}
			case *ast.CallExpr:
				if fn, ok := typeutil.Callee(info, x).(*types.Func); ok {
					params := fn.Signature().Params()
					for i, a := range x.Args {
						if i >= params.Len() {
							break
						}
						if src := source(a); src != nil {
							r.chanBinds[src] = append(r.chanBinds[src], chanBind{fn: fn, i: i})
						}
					}
				}
			}
			if v != nil {
				r.chanRecvs[v] = append(r.chanRecvs[v], at)
			}
			return true
		})
	}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
				walk(fd.Body, chanRecv{fn: fn, pkg: p}, false)
			}
		}
	}
}

// chanPublishes is the publish a send on channel field v stands for: the
// first publish of the functions that receive from it, nil if none
// publishes.
func (r *programResolver) chanPublishes(v *types.Var) *Effect {
	recvs := r.chanRecvs[v]
	if len(recvs) == 0 && len(r.chanFlows[v]) == 0 && len(r.chanBinds[v]) == 0 || r.chanBusy[v] {
		return nil
	}
	r.chanBusy[v] = true
	defer delete(r.chanBusy, v)
	for _, w := range r.chanFlows[v] {
		if p := r.chanPublishes(w); p != nil {
			return p
		}
	}
	for _, b := range r.chanBinds[v] {
		for _, fn := range r.bodiesOf(b.fn) {
			if params := fn.Signature().Params(); b.i < params.Len() {
				if p := r.chanPublishes(params.At(b.i)); p != nil {
					if fn != b.fn.Origin() {
						q := *p // the producer was found through its interface
						q.ViaInterface = true
						return &q
					}
					return p
				}
			}
		}
	}
	for _, at := range recvs {
		var e *Effects
		switch {
		case at.body != nil:
			var sig *types.Signature
			if at.fn != nil {
				sig = at.fn.Signature()
			} else {
				sig, _ = at.pkg.TypesInfo.TypeOf(at.lit).(*types.Signature)
			}
			c := r.newCollector(at.pkg)
			c.unit(sig, at.body)
			e = c.summarize()
			if e != nil && e.Publish != nil && e.Write != nil && !e.Publish.First && !c.dispatchedAlike(at.body) {
				continue // a worker that stores what it gets, then announces its own write
			}
			if e != nil && e.Publish != nil && at.fn != nil {
				return e.Publish.through(at.fn.Origin().FullName(), false, e.Publish.Handle) // the drain, in the chain
			}
			if (e == nil || e.Publish == nil) && kept(at.pkg.TypesInfo, at.body, at.val) {
				// batched: the value is kept (buf = append(buf, m)) and
				// published elsewhere in the loop (a ticker's case)
				if at.fn != nil {
					e = r.funcValueEffects(at.fn)
				} else if sig != nil {
					c.unit(sig, at.lit.Body)
					e = c.summarize()
				}
			}
		case at.fn != nil:
			e = r.funcValueEffects(at.fn)
		default:
			c := r.newCollector(at.pkg)
			if sig, ok := at.pkg.TypesInfo.TypeOf(at.lit).(*types.Signature); ok {
				c.unit(sig, at.lit.Body)
				e = c.summarize()
			}
		}
		if e != nil && e.Publish != nil {
			return e.Publish
		}
	}
	return nil
}

// dispatchedAlike: the unit's first write and first publish come from one
// call of an interface method (a pipeline stage's p.notify.Notify(ent)):
// which implementation runs decides, and the stage that publishes need
// not be the one that writes.
func (c *collector) dispatchedAlike(body *ast.BlockStmt) bool {
	var w, p token.Pos
	for i := range c.events {
		switch ev := &c.events[i]; {
		case ev.kind == evWrite && w == token.NoPos:
			w = ev.pos
		case ev.kind == evPublish && p == token.NoPos:
			p = ev.pos
		}
	}
	if w == token.NoPos || w != p {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if call.Pos() == w {
			if fn, ok := typeutil.Callee(c.info, call).(*types.Func); ok {
				if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// identObj is the object an identifier defines or uses (x := ..., x = ...).
func identObj(info *types.Info, x ast.Expr) types.Object {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := info.Defs[id]; o != nil {
		return o
	}
	return info.Uses[id]
}

func identVar(info *types.Info, x ast.Expr) *types.Var {
	v, _ := identObj(info, x).(*types.Var)
	return v
}

// kept reports whether body stores the received value v outside itself:
// assigned (or appended) to a variable declared before the block, or to a
// field.
func kept(info *types.Info, body *ast.BlockStmt, v *types.Var) bool {
	if v == nil {
		return false
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found {
			return !found
		}
		uses := false
		for _, r := range as.Rhs {
			ast.Inspect(r, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
					uses = true
				}
				return !uses
			})
		}
		if !uses {
			return true
		}
		for _, l := range as.Lhs {
			switch l := ast.Unparen(l).(type) {
			case *ast.SelectorExpr, *ast.IndexExpr:
				found = true
			case *ast.Ident:
				if o := info.Uses[l]; o != nil && (o.Pos() < body.Pos() || o.Pos() > body.End()) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// A channel handed down (CLI): a function passes a channel to a callee
// that sends on it (asyncfeed.AsyncFeed(ctx, ent, notif) starting a
// goroutine that does notif <- ent). Whether the value reaches a broker
// depends on the channel, not on the callee, so the callee's send is no
// publish of its own: the caller decides with its argument, a field some
// goroutine drains and publishes from (chanPublishes) or a parameter of its
// own. A send on a parameter is a publish where every channel the program's
// callers pass to that parameter is drained by a publisher (a scheduler
// stage handed its notify stage's channel), and nowhere else.

// maxChanHops bounds the channel hand-offs a publish is followed through:
// an emitter's queue drained by a publisher is one, a scheduler stage
// feeding the notify stage's queue two; a ban event relayed through three
// in-process channels to a connection manager is no publish of the ban's.
const maxChanHops = 2

// handedOff is the publish as reached through one more channel hand-off.
func (e *Effect) handedOff(name string) *Effect {
	q := e.through(name, true, HandleInternal)
	q.Hops = e.Hops + 1
	return q
}

// sendsOn says whether a function sends on a channel parameter, itself or
// through the callees it passes it to, and whether some send is not in a
// goroutine it starts.
type sendsOn struct{ sent, sync bool }

func (r *programResolver) sendsOnVar(v *types.Var) sendsOn {
	if s, ok := r.sendMemo[v]; ok {
		return s
	}
	r.sendMemo[v] = sendsOn{} // recursion: no send through this path
	var out sendsOn
	if sync, ok := r.chanSends[v]; ok {
		out = sendsOn{sent: true, sync: sync}
	}
	for _, b := range r.chanBinds[v] {
		for _, fn := range r.bodiesOf(b.fn) {
			if params := fn.Signature().Params(); b.i < params.Len() {
				if s := r.sendsOnVar(params.At(b.i)); s.sent {
					out.sent, out.sync = true, out.sync || s.sync
				}
			}
		}
	}
	r.sendMemo[v] = out
	return out
}

// sendsOnParam: fn (or, for an interface method, an implementation) sends
// on the channel in its parameter i.
func (r *programResolver) sendsOnParam(fn *types.Func, i int) sendsOn {
	var out sendsOn
	for _, body := range r.bodiesOf(fn) {
		if params := body.Signature().Params(); i < params.Len() {
			if s := r.sendsOnVar(params.At(i)); s.sent {
				out.sent, out.sync = true, out.sync || s.sync
			}
		}
	}
	return out
}

// chanCarries is the publish a value sent on channel v reaches: the
// drain of a field (or of a channel it flows into), or, for a parameter,
// the publish every caller's channel reaches.
func (r *programResolver) chanCarries(v *types.Var) *Effect {
	if p := r.chanPublishes(v); p != nil {
		return p
	}
	return r.paramCarries(v)
}

func (r *programResolver) paramCarries(v *types.Var) *Effect {
	if r.chanRev == nil {
		r.chanRev = map[*types.Var][]*types.Var{}
		for src, binds := range r.chanBinds {
			for _, b := range binds {
				for _, fn := range r.bodiesOf(b.fn) {
					if params := fn.Signature().Params(); b.i < params.Len() {
						r.chanRev[params.At(b.i)] = append(r.chanRev[params.At(b.i)], src)
					}
				}
			}
		}
		// a field set from a constructor's parameter holds the caller's
		// channel (NewStage(ctx, notif) keeping notif in p.notif)
		for src, fields := range r.chanFlows {
			for _, f := range fields {
				r.chanRev[f] = append(r.chanRev[f], src)
			}
		}
	}
	srcs := r.chanRev[v]
	if len(srcs) == 0 || r.paramBusy[v] {
		return nil
	}
	r.paramBusy[v] = true
	defer delete(r.paramBusy, v)
	var first *Effect
	for _, src := range srcs {
		p := r.chanCarries(src)
		if p == nil {
			return nil // a caller's channel that reaches no broker
		}
		if first == nil {
			first = p
		}
	}
	return first
}

// ChanCarries and SendsOnParam: the analyzer's locked views.
func (r *programResolver) ChanCarries(v *types.Var) *Effect {
	return settled(r, func() *Effect { return r.chanCarries(v) })
}

func (r *programResolver) SendsOnParam(fn *types.Func, i int) sendsOn {
	return settled(r, func() sendsOn { return r.sendsOnParam(fn, i) })
}

// chanArgs: a call that hands a channel to a callee sending on it is the
// publish of whatever drains that channel; in a goroutine of the callee's
// when every send is there.
func (c *collector) chanArgs(call *ast.CallExpr, wc wctx) {
	if c.sendsOnParam == nil || c.chanCarries == nil {
		return
	}
	fn, ok := typeutil.Callee(c.info, call).(*types.Func)
	if !ok {
		return
	}
	for i, a := range call.Args {
		if _, ok := underChan(c.info.TypeOf(a)); !ok {
			continue
		}
		v, _ := c.chanVarOf(a)
		if v == nil {
			continue
		}
		s := c.sendsOnParam(fn, i)
		if !s.sent {
			continue
		}
		p := c.chanCarries(v)
		if p == nil || p.Hops >= maxChanHops {
			continue
		}
		w := wc
		if !s.sync && w.async == syncCall {
			w.async, w.asyncNode = asyncGo, call
		}
		c.add(evPublish, call.Pos(), call.Rparen, p.handedOff(fn.Origin().FullName()), nil, nil, w)
		if eff, ok := c.effectsOf(fn); ok && eff != nil && eff.Write != nil {
			c.events[len(c.events)-1].owned = true
			c.events[len(c.events)-1].selfc = true
		}
		return
	}
}

// chanVarOf is the variable holding the channel x: a parameter, a field
// (with the selector naming it), or a local copied from a field (ch :=
// c.publishChannel).
func (c *collector) chanVarOf(x ast.Expr) (*types.Var, *ast.SelectorExpr) {
	x = ast.Unparen(x)
	if id, ok := x.(*ast.Ident); ok {
		v, ok := c.info.Uses[id].(*types.Var)
		if !ok {
			return nil, nil
		}
		if c.isParam(v) {
			return v, nil
		}
		if c.body != nil {
			if vals := localValues(c.info, c.body, v); len(vals) == 1 {
				x = ast.Unparen(vals[0])
			}
		}
	}
	if sel, ok := x.(*ast.SelectorExpr); ok {
		if s := c.info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
			v, _ := s.Obj().(*types.Var)
			return v, sel
		}
	}
	return nil, nil
}

// bodiesOf is fn itself, or for an interface method the methods of the
// program's types that implement the interface.
func (r *programResolver) bodiesOf(fn *types.Func) []*types.Func {
	recv := fn.Signature().Recv()
	if recv == nil || !types.IsInterface(recv.Type()) {
		return []*types.Func{fn.Origin()}
	}
	iface, _ := recv.Type().Underlying().(*types.Interface)
	if iface == nil {
		return nil
	}
	impls, _ := r.implementations(fn, iface)
	out := make([]*types.Func, 0, len(impls))
	for _, im := range impls {
		out = append(out, im.fn)
	}
	return out
}

// ChanPublishes implements the analyzer's view of chanPublishes (locked,
// settled like Effects).
func (r *programResolver) ChanPublishes(v *types.Var) *Effect {
	return settled(r, func() *Effect { return r.chanPublishes(v) })
}
