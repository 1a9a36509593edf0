package dualwrite

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

type evKind uint8

const (
	evWrite evKind = iota + 1
	evPublish
	evOutbox
	evCommit
	evQuery // runs SQL text the caller passes in a parameter (eff.SQLArg)
)

type asyncKind uint8

const (
	syncCall asyncKind = iota
	asyncGo
	asyncDefer
	asyncRetry
)

// event is one write, publish, outbox insert or commit seen in a function body.
type event struct {
	kind      evKind
	pos       token.Pos // where to report (the call)
	order     token.Pos // execution order inside a CFG block: calls complete at their ')'
	eff       *Effect   // what was reached (Name, Via, Store, Broker, Committed, ...)
	handle    types.Object
	base      types.Object // the variable the handle expression starts from (receiver, param)
	inTx      bool
	scope     *ast.CallExpr // the transaction callback call (gorm Transaction, ...) the event is in
	async     asyncKind
	asyncNode ast.Node     // the go/defer statement or retry loop
	loop      ast.Node     // innermost plain for loop around the event
	iter      ast.Node     // innermost for or range loop around the event
	errPath   bool         // inside an `if err != nil` branch
	errNode   ast.Node     // the outermost such branch's body
	worker    bool         // inside an endless loop (for {}, for range over a channel): a background worker's body
	recv      types.Object // the value a callee's effect was reached on (the receiver's root)
	// owned: a publish reached through a callee that also writes: the
	// event announces the callee's own write, not a write the caller makes
	// afterwards (CreateAccount inserts and publishes; the caller then
	// inserts a device).
	owned bool
	// selfc: a publish reached through a callee that also writes, in
	// whatever order (owned is the case where the write comes first)
	selfc bool
}

// wctx is the context of the walk at a node.
type wctx struct {
	async     asyncKind
	asyncNode ast.Node
	loop      ast.Node
	iter      ast.Node // innermost for or range loop
	scope     *ast.CallExpr
	errPath   bool
	errNode   ast.Node // the outermost error branch's body
	worker    bool
	guarded   bool // inside outbox.Enqueue's direct callback
}

// collector gathers the events of one function body.
type collector struct {
	info      *types.Info
	fset      *token.FileSet
	cat       *catalog.Catalog
	effectsOf func(fn *types.Func) (*Effects, bool) // callee summary; bool: through an interface
	runsOf    func(fn *types.Func) *Runs            // how a callee runs the closures it is given (nil: unknown)
	stmts     func(field *types.Var) (string, bool) // SQL a statement field was prepared with (stmts.go)
	self      string                                // full name of the function whose units are walked: chains back into it are cycles
	// memoryBroadcast (CLI only): does the type subscribe on the channel
	// field it publishes on, with handlers that only change memory
	// (broadcast.go)? nil: never.
	memoryBroadcast func(t *types.Named, bus, topic *types.Var) bool
	// fieldFuncs (CLI only): what the function values the program stores
	// in a func-typed struct field do when the field is called
	// (p.publish(subj, data) where New set publish: conn.Publish); nil:
	// never known.
	fieldFuncs func(field *types.Var) *Effects
	// paramFuncs (CLI only): what the function values the program passes
	// to a func-typed parameter do when it is called (paramfuncs.go); nil:
	// never known.
	paramFuncs func(param *types.Var) *Effects
	// paramResolved (CLI only): paramFuncs knows what the callee's
	// parameter i does, so the callee's summary holds it.
	paramResolved func(fn *types.Func, i int) bool
	// instMethod (CLI only): the method of an interface as a call
	// instantiates it (resolver.go)
	instMethod func(fn *types.Func, recv types.Type, sig *types.Signature) *types.Func
	// busEffects (CLI only): what the listeners an event bus runs for an
	// event key do (eventbus.go)
	busEffects func(bus int, key string) (sync, async *Effects)
	// chanPublishes (CLI only): the publish of the functions that receive
	// from a channel field (chanpub.go); nil: never known.
	chanPublishes func(field *types.Var) *Effect
	// chanCarries and sendsOnParam (CLI only): a channel handed down to a
	// callee that sends on it (chanpub.go); nil: never known.
	chanCarries  func(v *types.Var) *Effect
	sendsOnParam func(fn *types.Func, i int) sendsOn
	// routeWrite (CLI only): the write of the route handlers a middleware
	// (by full name) runs in its Next call (middleware.go); nil: never known.
	routeWrite func(mw string) *Effect
	// postCall: walking a closure the helper called here runs after its
	// commit (Runs.After)
	postCall *ast.CallExpr
	pkg      *types.Package

	// per unit
	events  []event
	lits    []*ast.FuncLit // closures that run on their own (stored, returned): separate units
	alias   map[types.Object]types.Object
	strVals map[types.Object]*string  // local variables holding one constant string (nil: more than one)
	built   map[types.Object][]string // strings.Builder/bytes.Buffer variables: what was written ("" unknown)
	txVars  map[types.Object]bool
	scopeOf map[types.Object]*ast.CallExpr // transaction callback parameters -> the callback's call
	relay   bool                           // reads or marks outbox rows: a relay, publishes are its job
	recv    types.Object
	params  []*types.Var
	body    *ast.BlockStmt // the unit's body

	// dispatch maps a dispatcher type to what the closures registered with
	// it publish (Register(name, func(...){ publish })); its methods that
	// call a function value then publish too. Shared across units.
	dispatch        map[*types.TypeName]*Effect
	dispatchChanged bool
	dynamic         bool // the unit calls a function value
	// unitScopes are the outbox.Run calls: their callbacks are units of work.
	unitScopes map[*ast.CallExpr]bool
	viaUnit    bool // the catalog call being added is made through a unit accessor
	// litVars are the unit's local variables bound once to a closure
	// (send := func() error {...}): passed to a call or called, the closure
	// runs there. inline is the call running one: its events are placed at
	// that call (the closure's body sits where it was defined).
	litVars map[types.Object]*ast.FuncLit
	inline  *ast.CallExpr
	// unitTx are the transactions begun by outbox.BeginSQL: the unit's
	// transaction, so writes on them join the unit of the context.
	unitTx map[types.Object]bool
}

// popsList reports whether the collector's package takes items off a list
// (a Dequeue row): its list pushes then feed a work queue. Asked only at a
// list push, which few functions make, so it is not memoised.
func (c *collector) popsList() bool {
	commands := false
	for _, obj := range c.info.Uses {
		if fn, ok := obj.(*types.Func); ok {
			if e := c.cat.Match(fn); e != nil {
				if e.Kind == catalog.Dequeue {
					return true
				}
				commands = commands || e.Command
			}
		}
	}
	if commands {
		// a client that builds commands pops with a builder's Brpop (or alike)
		for id, obj := range c.info.Uses {
			if fn, ok := obj.(*types.Func); ok && fn.Signature().Recv() != nil {
				if cmd := catalog.BuilderCommand(fn.Signature().Recv().Type(), id.Name); cmd != "" {
					if k, _ := catalog.CommandEffect(cmd); k == catalog.Dequeue {
						return true
					}
				}
			}
		}
		// a client that takes commands as strings pops with a constant
		// BRPOP (or alike) somewhere in the package
		for _, tv := range c.info.Types {
			if tv.Value != nil && tv.Value.Kind() == constant.String {
				if k, _ := catalog.CommandEffect(constant.StringVal(tv.Value)); k == catalog.Dequeue {
					return true
				}
			}
		}
	}
	return false
}

// redisCommand is what the call of a Command row does, by its constant
// command argument: catalog.Publish (listPush for a list push), or 0 when
// the command is something else or not a constant.
func (c *collector) redisCommand(call *ast.CallExpr, fn *types.Func) (k catalog.Kind, listPush bool) {
	i := catalog.CommandArg(fn.Signature())
	if i < 0 {
		// a built command (rueidis): the chain's first builder method names it
		for _, a := range call.Args {
			if cmd := c.builtCommand(a); cmd != "" {
				if k, push := catalog.CommandEffect(cmd); k == catalog.Publish {
					return k, push
				}
			}
		}
		return 0, false
	}
	if i >= len(call.Args) {
		return 0, false
	}
	tv, ok := c.info.Types[call.Args[i]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return 0, false
	}
	return catalog.CommandEffect(constant.StringVal(tv.Value))
}

// smsOnly reports whether an SNS publish call sends an SMS: its input
// names a PhoneNumber and no TopicArn or TargetArn (in the literal, or set
// on the variable in the unit: input.SetPhoneNumber(to)). That reaches a
// phone, not a topic any consumer reads: no broker publish.
func (c *collector) smsOnly(call *ast.CallExpr) bool {
	phone, topic := false, false
	note := func(name string) {
		switch strings.TrimPrefix(name, "Set") {
		case "PhoneNumber":
			phone = true
		case "TopicArn", "TargetArn":
			topic = true
		}
	}
	// the fields a literal (or &literal) input names
	lit := func(x ast.Expr) {
		x = ast.Unparen(x)
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
			x = ast.Unparen(u.X)
		}
		if cl, ok := x.(*ast.CompositeLit); ok {
			for _, el := range cl.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						note(id.Name)
					}
				}
			}
		}
	}
	for _, a := range call.Args {
		lit(a)
		id, ok := ast.Unparen(a).(*ast.Ident)
		if !ok || c.body == nil {
			continue
		}
		v, _ := c.info.Uses[id].(*types.Var)
		if v == nil {
			continue
		}
		for _, val := range localValues(c.info, c.body, v) {
			lit(val) // input := &sns.PublishInput{PhoneNumber: ...}
		}
		ast.Inspect(c.body, func(n ast.Node) bool { // input.SetPhoneNumber(to)
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
					if x, ok := ast.Unparen(sel.X).(*ast.Ident); ok && c.info.Uses[x] == v {
						note(sel.Sel.Name)
					}
				}
			}
			return true
		})
	}
	return phone && !topic
}

// builtCommand is the Redis command a builder chain (rueidis:
// c.B().Publish().Channel(ch).Message(m).Build()) builds, "" when e is no
// such chain.
func (c *collector) builtCommand(e ast.Expr) string {
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return ""
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return ""
		}
		if s := c.info.Selections[sel]; s != nil {
			if cmd := catalog.BuilderCommand(s.Recv(), sel.Sel.Name); cmd != "" {
				return cmd
			}
		}
		e = sel.X
	}
}

func newCollector(info *types.Info, fset *token.FileSet, cat *catalog.Catalog, pkg *types.Package, effectsOf func(*types.Func) (*Effects, bool)) *collector {
	return &collector{info: info, fset: fset, cat: cat, pkg: pkg, effectsOf: effectsOf}
}

// unit resets the collector for one function and walks its body.
func (c *collector) unit(sig *types.Signature, body *ast.BlockStmt) {
	c.events = c.events[:0]
	c.lits = c.lits[:0]
	c.alias = nil
	c.strVals = nil
	c.built = nil
	c.txVars = nil
	c.scopeOf = nil
	c.relay, c.dynamic = false, false
	c.unitScopes = nil
	c.unitTx = nil
	c.recv, c.params = nil, c.params[:0]
	c.litVars, c.inline = nil, nil
	if body != nil {
		c.litVars = closureVars(c.info, body)
	}
	if sig != nil {
		if r := sig.Recv(); r != nil {
			c.recv = r
		}
		for i := 0; i < sig.Params().Len(); i++ {
			c.params = append(c.params, sig.Params().At(i))
		}
	}
	c.body = body
	if body != nil {
		c.walk(body, wctx{})
	}
}

func (c *collector) walk(n ast.Node, wc wctx) {
	switch x := n.(type) {
	case *ast.Ident, *ast.BasicLit:
		return // nothing to see; spares the closure below
	case *ast.SelectorExpr:
		if _, ok := x.X.(*ast.Ident); ok {
			return
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			c.lits = append(c.lits, n)
			return false
		case *ast.GoStmt:
			if lit, ok := ast.Unparen(n.Call.Fun).(*ast.FuncLit); ok && isWorkerBody(c.info, lit.Body) {
				// go func() { for { ... } }(): a background worker, checked on its own
				for _, a := range n.Call.Args {
					c.walk(a, wc)
				}
				c.lits = append(c.lits, lit)
				return false
			}
			w := wc
			w.async, w.asyncNode = asyncGo, n
			c.call(n.Call, w)
			return false
		case *ast.RangeStmt:
			if isChan(c.info.TypeOf(n.X)) {
				w := wc
				w.worker = true
				c.walk(n.X, wc)
				c.walk(n.Body, w)
				return false
			}
			w := wc
			w.iter = n
			for _, ch := range []ast.Node{n.Key, n.Value, n.X} {
				if ch != nil && !isNilNode(ch) {
					c.walk(ch, wc)
				}
			}
			c.walk(n.Body, w)
			return false
		case *ast.DeferStmt:
			w := wc
			w.async, w.asyncNode = asyncDefer, n
			c.call(n.Call, w)
			return false
		case *ast.ForStmt:
			w := wc
			w.loop, w.iter = n, n
			if n.Cond == nil && !untilSuccess(c.info, n) {
				w.worker = true
			}
			for _, ch := range []ast.Node{n.Init, n.Cond, n.Post, n.Body} {
				if ch != nil && !isNilNode(ch) {
					c.walk(ch, w)
				}
			}
			return false
		case *ast.IfStmt:
			if !isErrCheck(c.info, n.Cond) {
				return true
			}
			if n.Init != nil {
				c.walk(n.Init, wc)
			}
			c.walk(n.Cond, wc)
			w := wc
			if !w.errPath {
				w.errNode = n.Body
			}
			w.errPath = true
			c.walk(n.Body, w)
			if n.Else != nil {
				c.walk(n.Else, wc)
			}
			return false
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 && len(n.Lhs) >= 1 {
				c.assign(n.Lhs[0], n.Rhs[0])
			} else if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					c.assign(n.Lhs[i], n.Rhs[i])
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) == 1 && len(n.Names) >= 1 {
				c.assign(n.Names[0], n.Values[0])
			}
		case *ast.SendStmt:
			if call, ok := ast.Unparen(n.Chan).(*ast.CallExpr); ok {
				if fn, ok := typeutil.Callee(c.info, call).(*types.Func); ok {
					if e := c.cat.Match(fn); e != nil && e.Kind == catalog.Publish && e.Send {
						c.walk(n.Chan, wc)
						c.walk(n.Value, wc)
						c.add(evPublish, n.Arrow, n.End(), &Effect{Name: e.Name, Broker: e.Broker, Handle: HandleInternal}, nil, nil, wc)
						return false
					}
				}
			}
			// the service's own interface over the client's producer
			// (Input() chan<- *sarama.ProducerMessage): a send of the
			// client's message type is the client's publish
			if ch, ok := underChan(c.info.TypeOf(n.Chan)); ok {
				if e := c.cat.SentOn(ch.Elem()); e != nil && e.Kind == catalog.Publish {
					c.walk(n.Chan, wc)
					c.walk(n.Value, wc)
					c.add(evPublish, n.Arrow, n.End(), &Effect{Name: e.Name, Broker: e.Broker, Handle: HandleInternal}, nil, nil, wc)
					return false
				}
			}
			// a channel field a goroutine drains and publishes from, or a
			// channel a caller passed in (what every caller's channel carries)
			if c.chanPublishes != nil {
				if v, sel := c.chanVarOf(n.Chan); v != nil {
					var p *Effect
					name := v.Name() + " <-"
					switch {
					case sel != nil:
						carries := c.chanPublishes
						if c.chanCarries != nil {
							carries = c.chanCarries // also the channel a constructor put in the field
						}
						p = carries(v)
						name = "(" + types.TypeString(c.info.Selections[sel].Recv(), nil) + ")." + name
					case c.chanCarries != nil && c.isParam(v):
						p = c.chanCarries(v)
					}
					if p != nil && p.Hops < maxChanHops {
						c.walk(n.Chan, wc)
						c.walk(n.Value, wc)
						c.add(evPublish, n.Arrow, n.End(), p.handedOff(name), nil, nil, wc) // drained elsewhere in the program: CLI only
						return false
					}
				}
			}
		case *ast.CallExpr:
			c.noteBuilt(n)
			c.call(n, wc)
			c.chanArgs(n, wc)
			c.nextCall(n, wc)
			return false
		}
		return true
	})
}

// builderPkg: fn is of a package whose functions build SQL text (strings,
// bytes, fmt); checked before the full name, which costs an allocation.
func builderPkg(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() {
	case "strings", "bytes", "fmt":
		return true
	}
	return false
}

// noteBuilt records what a call writes into a local strings.Builder or
// bytes.Buffer (b.WriteString(`INSERT INTO ...`), fmt.Fprintf(&b, ...)):
// the SQL text b.String() later yields, in source order, "" for what is
// not constant.
func (c *collector) noteBuilt(call *ast.CallExpr) {
	fn, ok := typeutil.Callee(c.info, call).(*types.Func)
	if !ok || !builderPkg(fn) {
		return
	}
	var target ast.Expr
	parts := []string{""} // not constant: one unknown part
	switch fn.FullName() {
	case "(*strings.Builder).WriteString", "(*bytes.Buffer).WriteString":
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 1 {
			return
		}
		target = sel.X
		if text, ok := c.constString(call.Args[0]); ok {
			parts = []string{text}
		}
	case "fmt.Fprintf":
		if len(call.Args) < 2 {
			return
		}
		target = call.Args[0]
		if format, ok := c.constString(call.Args[1]); ok {
			parts = formatParts(format)
		}
	default:
		return
	}
	id := builtIdent(target)
	if id == nil {
		return
	}
	obj, ok := c.info.Uses[id].(*types.Var)
	if !ok || obj.IsField() {
		return
	}
	if t := strings.TrimPrefix(types.TypeString(obj.Type(), nil), "*"); t != "strings.Builder" && t != "bytes.Buffer" {
		return
	}
	if c.built == nil {
		c.built = map[types.Object][]string{}
	}
	c.built[obj] = append(c.built[obj], parts...)
}

func isNilNode(n ast.Node) bool {
	switch n := n.(type) {
	case ast.Stmt:
		return n == nil
	case ast.Expr:
		return n == nil
	}
	return false
}

// call walks a call's operands (inlining closure arguments) and then records the call itself.
func (c *collector) call(call *ast.CallExpr, wc wctx) {
	callee := typeutil.Callee(c.info, call)
	fn, _ := callee.(*types.Func)
	if fn != nil && c.instMethod != nil {
		fn = c.instIface(call, fn)
	}
	var row *catalog.Entry
	if fn != nil {
		row = c.cat.Match(fn)
		if row == nil && fn.Signature().Recv() != nil && types.IsInterface(fn.Signature().Recv().Type()) {
			// the team's own interface over a client's publisher or writer
			row, _ = c.cat.MatchInterface(fn, c.pkg.Imports()...)
		}
	}
	if fn != nil && row == nil && c.busDispatch(call, fn, wc) {
		return
	}
	switch unitRole(fn) {
	case "run":
		row = runRow(fn)
		if c.unitScopes == nil {
			c.unitScopes = map[*ast.CallExpr]bool{}
		}
		c.unitScopes[call] = true
	case "enqueue":
		// the message and its encoding are data; the direct callback is
		// the guarded publish
		for i, arg := range call.Args {
			if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok && i == 2 {
				w := wc
				w.guarded = true
				c.walk(lit.Body, w)
				continue
			}
			c.walk(arg, wc)
		}
		return
	case "accessor", "begin", "end":
		// a handle for the unit, the code's own transaction joining it
		// (BeginSQL), or that transaction's end (CommitSQL, RollbackSQL:
		// a savepoint; the unit commits)
		for _, arg := range call.Args {
			c.walk(arg, wc)
		}
		return
	}

	// operands first: they run before the call
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		c.walk(lit.Body, wc) // func(){...}() and go/defer func(){...}()
	} else {
		c.walk(call.Fun, wc)
	}
	argCtx := wc
	if wc.async == syncCall && fn != nil && row != nil && row.Kind == catalog.Retry {
		argCtx.async, argCtx.asyncNode = asyncRetry, call // a configured retry helper
	} else if wc.async == syncCall && fn != nil && row == nil {
		if k := closureRunner(fn); k != syncCall {
			argCtx.async, argCtx.asyncNode = k, call // by name: the fallback
		}
	}
	var runs *Runs
	if fn != nil && row == nil && c.runsOf != nil {
		runs = c.runsOf(fn)
	}
	var walked map[string]bool // the callee's func parameters whose values were walked here
	commits := false           // a helper that runs the closure in a transaction and commits
	var post []*ast.FuncLit    // closures the helper calls after it committed
	defer func() {
		// registered before the commit below: runs after it is recorded
		if len(post) == 0 {
			return
		}
		prev := c.postCall
		c.postCall = call
		for _, lit := range post {
			c.walk(lit.Body, wc)
		}
		c.postCall = prev
	}()
	for i, arg := range call.Args {
		if row == nil && fn != nil && c.paramResolved != nil && runs.kind(i) != runSync && isFuncType(c.info.TypeOf(arg)) && c.paramResolved(fn, i) {
			// the callee (an interface's implementations, or one that runs
			// it later) calls this parameter and every caller's value is
			// known: what it does is in the callee's summary, at the point
			// the callee calls it (paramfuncs.go). A parameter the callee
			// runs before it returns is walked here as before.
			if _, lit := ast.Unparen(arg).(*ast.FuncLit); !lit {
				c.walk(arg, wc)
			}
			continue
		}
		if runs == nil || len(runs.Fields) == 0 {
			// no struct callback to look for (the common case: skip the
			// local's values, which walk the body)
		} else if cl := c.compositeArg(arg); cl != nil {
			// &Options{Atomic: func(tx) ...}: a callback in a field of a
			// struct argument, run as the helper runs that field
			for _, el := range cl.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					c.walk(el, wc)
					continue
				}
				key, _ := kv.Key.(*ast.Ident)
				flit, _ := ast.Unparen(kv.Value).(*ast.FuncLit)
				if key == nil || flit == nil || runs.field(i, key.Name) != runSync {
					c.walk(kv.Value, wc)
					continue
				}
				w := argCtx
				if runs.Commits {
					w.scope = call
					c.markTxParams(flit, call)
					commits = true
				}
				c.walk(flit.Body, w)
				if runs.After[FieldKey{i, key.Name}] {
					post = append(post, returnedLits(c.info, flit)...)
				}
			}
			continue
		}
		lit, ok := ast.Unparen(arg).(*ast.FuncLit)
		fromVar := false
		if !ok {
			if lit = c.closureVar(arg); lit != nil {
				// a closure bound to a variable: run (or stored) by this call
				// like one written out; the variable's closure is also
				// checked as a unit of its own, where it was defined
				ok, fromVar = true, true
				if c.inline == nil {
					c.inline = call
					defer func() { c.inline = nil }()
				}
			}
		}
		if row != nil && row.Kind == catalog.Later && i >= row.Func {
			// a route, a cron job, a timer: the handler is an entry point
			if ok {
				c.addLit(lit, fromVar)
			} else {
				c.walk(arg, wc)
			}
			continue
		}
		if !ok {
			if row == nil && fn != nil && c.isRegistration(fn, runs, i) {
				c.registerFunc(fn, arg) // Subscribe("x", s.onPlaced): a method value
			} else if row == nil && fn != nil && runs.kind(i) == runSync && c.effectsOf != nil {
				// withHooks(ctx, c.sqlSave, ...): a function value the callee
				// calls during the call, as a closure written out would be
				if ref := c.funcRef(arg); ref != nil {
					if eff, iface := c.effectsOf(ref); !eff.empty() {
						c.calleeEffects(call, ref, eff, iface, argCtx)
						walked = walkedParam(walked, fn, i)
					}
				}
			}
			c.walk(arg, wc)
			continue
		}
		if row == nil && fn != nil && c.isRegistration(fn, runs, i) {
			c.register(fn, lit)
			c.addLit(lit, fromVar)
			continue
		}
		if row != nil && row.Kind == catalog.TxFunc && row.Func == i {
			w := wc
			w.scope = call
			c.markTxParams(lit, call)
			c.walk(lit.Body, w)
			continue
		}
		if row != nil && row.Kind == catalog.Retry {
			c.walk(lit.Body, argCtx)
			continue
		}
		if row != nil && row.Kind == catalog.Consume || fn == nil {
			c.addLit(lit, fromVar) // handlers run later, on their own
			continue
		}
		switch runs.kind(i) {
		case runSync:
			walked = walkedParam(walked, fn, i)
			if runs.Commits {
				w := argCtx
				w.scope = call
				c.markTxParams(lit, call)
				c.walk(lit.Body, w)
				commits = true
				continue
			}
			c.walk(lit.Body, argCtx) // run during the call (retry.Do, a helper)
		case runGo:
			w := wc
			w.async, w.asyncNode = asyncGo, call
			c.walk(lit.Body, w)
		case runNever:
			c.addLit(lit, fromVar) // wrapped or stored: an entry point of its own
		default:
			if wrapsClosure(fn) {
				c.addLit(lit, fromVar)
				continue
			}
			c.walk(lit.Body, argCtx) // no body to read: as a callback run by the call
		}
	}
	if commits {
		w := wc
		w.scope = call
		defer c.add(evCommit, call.Pos(), call.Rparen, &Effect{Name: fn.Origin().FullName(), Handle: HandleInternal}, nil, nil, w)
	}

	if fn == nil {
		if v, isVar := callee.(*types.Var); isVar && c.litVars[v] != nil && c.inline == nil {
			// send() where send := func() error {...}: the closure runs here
			c.inline = call
			c.walk(c.litVars[v].Body, wc)
			c.inline = nil
			return
		}
		if v, isVar := callee.(*types.Var); isVar && c.fieldFuncs != nil && v.IsField() {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && c.info.Selections[sel] != nil {
				if eff := c.fieldFuncs(v); !eff.empty() {
					name := "(" + types.TypeString(c.info.Selections[sel].Recv(), nil) + ")." + v.Name()
					c.effectsAt(call, name, false, eff, true, wc)
					return
				}
			}
		}
		if v, isVar := callee.(*types.Var); isVar && c.paramFuncs != nil && !v.IsField() {
			if eff := c.paramFuncs(v); !eff.empty() {
				c.effectsAt(call, v.Name(), false, eff, true, wc)
				return
			}
		}
		if tv, ok := c.info.Types[call.Fun]; ok && tv.IsType() {
			return // a conversion, string(pr.State): no call at all
		}
		if _, isVar := callee.(*types.Var); isVar || callee == nil {
			c.dynamicCall(call, wc)
		}
		return
	}
	if c.throughAccessor(call) {
		// outbox.SQL(ctx, r.db).ExecContext(...): the write joins the
		// unit of the context (arguments were walked above, without it)
		c.viaUnit = true
		defer func() { c.viaUnit = false }()
	}
	if row != nil {
		c.catalogCall(call, fn, row, wc)
		return
	}
	if c.relaySQLArg(call) {
		c.relay = true // the SQL is run later (pgx Batch.Queue, a helper taking the query)
		return
	}
	if h, ok := c.outboxWriter(call, fn); ok {
		c.add(evOutbox, call.Pos(), call.Rparen, &Effect{Name: fn.FullName(), Handle: HandleInternal}, h, nil, wc)
		return
	}
	if c.effectsOf != nil {
		if eff, iface := c.effectsOf(fn); !eff.empty() {
			if eff = withoutParams(eff, walked); !eff.empty() {
				c.calleeEffects(call, fn, eff, iface, wc)
			}
			return
		}
	}
	if isResultMethod(fn) {
		h, base := c.recvRoot(call)
		c.add(evWrite, call.Pos(), call.Rparen, &Effect{Name: fn.Origin().FullName(), Store: catalog.SQL, Handle: HandleInternal}, h, base, wc)
		return
	}
	c.sqlShapedCall(call, fn, wc)
}

// funcRef is the function or method a func-typed argument names (fn,
// pkg.Fn, x.Method as a method value), nil for anything else.
func (c *collector) funcRef(e ast.Expr) *types.Func {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := c.info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel := c.info.Selections[x]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := c.info.Uses[x.Sel].(*types.Func) // pkg.Fn
		return fn
	}
	return nil
}

// relaySQLArg reports whether a call is given constant SQL text that reads,
// marks or deletes outbox rows, whatever runs it: the claim of a relay is
// often queued on a batch or handed to a helper rather than passed to a
// catalogued query method.
func (c *collector) relaySQLArg(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if _, lit := a.(*ast.FuncLit); lit {
			continue
		}
		if s, ok := c.constString(a); ok && catalog.LooksLikeSQL(s) && catalog.ClassifySQL(s) == catalog.SQLOutboxRelay {
			return true
		}
	}
	return false
}

// sqlShapedMethods are the names of query methods on handles the catalog
// does not know (sqlc's pgx DBTX, home-made wrappers).
var sqlShapedMethods = map[string]bool{
	"Exec": true, "ExecContext": true, "Query": true, "QueryContext": true,
	"QueryRow": true, "QueryRowContext": true, "NamedExec": true, "NamedExecContext": true,
	// sqlx's scanning helpers behind a team's interface (GetContext(ctx,
	// &row, "UPDATE ... RETURNING ...", args...))
	"Get": true, "GetContext": true, "Select": true, "SelectContext": true,
}

// sqlShapedCall is the second fallback: a method named like a query whose
// constant SQL argument is DML writes (or inserts an outbox row).
func (c *collector) sqlShapedCall(call *ast.CallExpr, fn *types.Func, wc wctx) {
	if fn.Signature().Recv() == nil || !sqlShapedMethods[fn.Name()] {
		return
	}
	for _, a := range call.Args {
		text, ok := c.constString(a)
		if !ok {
			continue
		}
		kind := evWrite
		switch catalog.ClassifySQL(text) {
		case catalog.SQLOutboxInsert:
			kind = evOutbox
		case catalog.SQLOutboxRelay:
			c.relay = true
			return
		case catalog.SQLRead, catalog.SQLInbox, catalog.SQLSchema:
			return
		}
		h, base := c.recvRoot(call)
		c.add(kind, call.Pos(), call.Rparen, &Effect{Name: fn.Origin().FullName(), Store: catalog.SQL, Handle: HandleInternal}, h, base, wc)
		return
	}
}

// closureRunner says how a callee runs the closures it is given: a retry
// helper retries them, errgroup-like Go methods run them in a goroutine.
func closureRunner(fn *types.Func) asyncKind {
	name := fn.Name()
	path := ""
	if fn.Pkg() != nil {
		path = fn.Pkg().Path()
	}
	switch {
	case name == "Go" && fn.Signature().Recv() != nil:
		return asyncGo
	case strings.Contains(name, "Retry") || strings.Contains(path, "retry") || strings.Contains(path, "backoff"):
		return asyncRetry
	}
	return syncCall
}

func (c *collector) markTxParams(lit *ast.FuncLit, call *ast.CallExpr) {
	for _, f := range lit.Type.Params.List {
		for _, n := range f.Names {
			if obj := c.info.Defs[n]; obj != nil && !isContext(obj.Type()) {
				c.setTx(obj)
				if c.scopeOf == nil {
					c.scopeOf = map[types.Object]*ast.CallExpr{}
				}
				c.scopeOf[obj] = call
			}
		}
	}
}

func (c *collector) setTx(obj types.Object) {
	if c.txVars == nil {
		c.txVars = map[types.Object]bool{}
	}
	c.txVars[obj] = true
}

func (c *collector) catalogCall(call *ast.CallExpr, fn *types.Func, row *catalog.Entry, wc wctx) {
	switch row.Kind {
	case catalog.Write, catalog.Query:
		text, ok := "", false
		switch {
		case row.SQL != catalog.NoArg:
			text, ok = c.sqlText(call, row)
		case row.Store == catalog.SQL:
			text, ok = c.stmtSQL(call) // a prepared statement kept in a field
		}
		if row.SQL != catalog.NoArg || ok || row.Kind == catalog.Query {
			switch {
			case ok:
				switch catalog.ClassifySQL(text) {
				case catalog.SQLOutboxInsert:
					h, base := c.recvRoot(call)
					c.add(evOutbox, call.Pos(), call.Rparen, &Effect{Name: row.Name, Store: row.Store, Handle: HandleInternal}, h, base, wc)
					return
				case catalog.SQLOutboxRelay:
					c.relay = true
					return
				case catalog.SQLInbox:
					return // a consumer's dedupe record: nothing an event announces
				case catalog.SQLSchema:
					return // DDL or a migration tool's bookkeeping: start-up, not a business write
				case catalog.SQLRead:
					if row.Kind == catalog.Query || catalog.NoEffectSQL(text) {
						return // an Exec of ";" or a plain SELECT: a wait or health check
					}
				}
			case row.Kind == catalog.Query:
				// SQL not known: a query is read-only until shown otherwise;
				// when it is a parameter, the caller's SQL will show it
				if row.SQL != catalog.NoArg && row.SQL < len(call.Args) {
					if j := c.paramIndex(call.Args[row.SQL]); j >= 0 {
						h, base := c.recvRoot(call)
						c.add(evQuery, call.Pos(), call.Rparen, &Effect{Name: row.Name, Store: row.Store, Handle: HandleInternal, SQLArg: j}, h, base, wc)
					}
				}
				return
			}
		}
		h, base := c.recvRoot(call)
		if row.Store == catalog.DynamoDB && strings.HasSuffix(row.Name, ".TransactWriteItems") && c.dynamoOutboxItem(call) {
			// the outbox item commits with the write: an outbox write
			c.add(evWrite, call.Pos(), call.Rparen, &Effect{Name: row.Name, Store: row.Store, Handle: HandleInternal, Covered: true}, h, base, wc)
			return
		}
		if c.tempTableCopy(call, row) {
			return // filling a temporary table for a join: the transaction drops it
		}
		if c.outboxTarget(call, row) {
			c.add(evOutbox, call.Pos(), call.Rparen, &Effect{Name: row.Name, Store: row.Store, Handle: HandleInternal}, h, base, wc)
			return
		}
		c.add(evWrite, call.Pos(), call.Rparen, &Effect{Name: row.Name, Store: row.Store, Handle: HandleInternal, CtxTx: row.CtxTx}, h, base, wc)
	case catalog.OutboxInsert:
		// a configured outbox writer: the row goes on its handle argument
		// (or the first non-context argument, else the receiver)
		var h, base types.Object
		switch {
		case row.Handle != catalog.NoArg && row.Handle < len(call.Args):
			h, base = c.root(call.Args[row.Handle])
		default:
			for _, a := range call.Args {
				if t := c.info.TypeOf(a); t != nil && !isContext(t) {
					h, base = c.root(a)
					break
				}
			}
			if h == nil {
				h, base = c.recvRoot(call)
			}
		}
		c.add(evOutbox, call.Pos(), call.Rparen, &Effect{Name: row.Name, Store: row.Store, Handle: HandleInternal}, h, base, wc)
	case catalog.Commit:
		h, base := c.recvRoot(call)
		w := wc
		w.scope = nil
		c.add(evCommit, call.Pos(), call.Rparen, &Effect{Name: row.Name, Store: row.Store, Handle: HandleInternal}, h, base, w)
	case catalog.TxFunc:
		w := wc
		w.scope = call
		c.add(evCommit, call.Pos(), call.Rparen, &Effect{Name: row.Name, Store: row.Store, Handle: HandleInternal}, nil, nil, w)
	case catalog.Publish:
		if row.Send {
			return // the publish is the send on the returned channel
		}
		listPush := row.ListPush
		if row.Command {
			k, push := c.redisCommand(call, fn)
			if k != catalog.Publish {
				return // SET, HSET, a pop...: cache or queue work, no publish
			}
			listPush = push
		}
		if listPush && !c.popsList() {
			return // a list kept as data (a capped log, a cache), not a queue
		}
		if row.Broker == "sns" && c.smsOnly(call) {
			return // a text message to a phone number, not a topic
		}
		if c.selfBroadcast(call) {
			return // a broadcast to the replicas' memory (broadcast.go)
		}
		h, base := c.recvRoot(call)
		if h != nil && c.isTx(h) {
			// a publisher built on the transaction (watermill-sql and alike) writes the outbox
			c.add(evOutbox, call.Pos(), call.Rparen, &Effect{Name: row.Name, Handle: HandleInternal}, h, base, wc)
			return
		}
		c.add(evPublish, call.Pos(), call.Rparen, &Effect{Name: row.Name, Broker: row.Broker, Handle: HandleInternal}, nil, nil, wc)
	}
}

// calleeEffects records what a call to a summarised function does.
func (c *collector) calleeEffects(call *ast.CallExpr, fn *types.Func, eff *Effects, iface bool, wc wctx) {
	c.effectsAt(call, fn.Origin().FullName(), isConstructor(fn), eff, iface, wc)
}

// effectsAt records at a call what the function it runs does: name is the
// callee for the chains (a function, or a func-typed field), ctor says it
// builds a component at start-up.
func (c *collector) effectsAt(call *ast.CallExpr, name string, ctor bool, eff *Effects, iface bool, wc wctx) {
	if eff.Relay {
		c.relay = true
	}
	if ctor {
		// NewX(...) builds a component at start-up: the migrations it runs,
		// the seed rows it writes, the workers it starts are start-up work,
		// not the caller's request (a relay or relation is checked in its own body)
		e := *eff
		e.Write, e.Publish, e.Outbox, e.Query = nil, nil, nil, nil
		eff = &e
	}
	if c.self != "" && (name == c.self || eff.reaches(c.self)) {
		// recursion: what comes back through this function is what it
		// does itself, already seen on the acyclic path
		e := *eff
		e.Write, e.Publish, e.Outbox, e.Query = acyclic(e.Write, c.self), acyclic(e.Publish, c.self), acyclic(e.Outbox, c.self), acyclic(e.Query, c.self)
		if name == c.self {
			e.Write, e.Publish, e.Outbox, e.Query = nil, nil, nil, nil
		}
		eff = &e
	}
	if wc.async == asyncGo {
		// go w.run(): what the started worker's loop does is the worker's
		// own business (checked in its body), not this function's path
		e := *eff
		if e.Write != nil && e.Write.Worker {
			e.Write = nil
		}
		if e.Publish != nil && e.Publish.Worker {
			e.Publish = nil
		}
		if e.Outbox != nil && e.Outbox.Worker {
			e.Outbox = nil
		}
		eff = &e
	}
	if e := eff.Write; e != nil {
		h, base := c.effectHandle(call, e.Handle)
		out := e.through(name, iface, HandleInternal)
		w := wc
		if e.Async && w.async == syncCall {
			w.async, w.asyncNode = asyncGo, call // the callee's own goroutine writes
		}
		c.add(evWrite, call.Pos(), call.Rparen, out, h, base, w)
	}
	if e := eff.Outbox; e != nil {
		h, base := c.effectHandle(call, e.Handle)
		c.add(evOutbox, call.Pos(), call.Rparen, e.through(name, iface, HandleInternal), h, base, wc)
		// a callee that writes and queues its outbox row: whether they
		// share a transaction is its own body's question
		c.events[len(c.events)-1].selfc = eff.Write != nil
	}
	if e := eff.Query; e != nil && e.SQLArg >= 0 && e.SQLArg < len(call.Args) {
		arg := call.Args[e.SQLArg]
		h, base := c.effectHandle(call, e.Handle)
		if text, ok := c.constString(arg); ok {
			switch catalog.ClassifySQL(text) {
			case catalog.SQLDML:
				c.add(evWrite, call.Pos(), call.Rparen, e.through(name, iface, HandleInternal), h, base, wc)
			case catalog.SQLOutboxInsert:
				c.add(evOutbox, call.Pos(), call.Rparen, e.through(name, iface, HandleInternal), h, base, wc)
			case catalog.SQLOutboxRelay:
				c.relay = true
			}
		} else if j := c.paramIndex(arg); j >= 0 {
			out := e.through(name, iface, HandleInternal)
			out.SQLArg = j
			c.add(evQuery, call.Pos(), call.Rparen, out, h, base, wc)
		}
	}
	if e := eff.Publish; e != nil && !c.selfBroadcast(call) {
		c.add(evPublish, call.Pos(), call.Rparen, e.through(name, iface, HandleInternal), nil, nil, wc)
		// a callee that writes and then publishes announces its own
		// write; one that publishes first (and records it) does not
		c.events[len(c.events)-1].owned = eff.Write != nil && !e.First
		c.events[len(c.events)-1].selfc = eff.Write != nil
	}
	if r, _ := c.recvRoot(call); r != nil {
		for i := len(c.events) - 1; i >= 0 && c.events[i].pos == call.Pos(); i-- {
			c.events[i].recv = r
		}
	}
}

func (c *collector) effectHandle(call *ast.CallExpr, h int) (types.Object, types.Object) {
	switch {
	case h == HandleRecv:
		return c.recvRoot(call)
	case h >= 0 && h < len(call.Args):
		return c.root(call.Args[h])
	}
	return nil, nil
}

func (c *collector) add(k evKind, pos, order token.Pos, eff *Effect, h, base types.Object, wc wctx) {
	if c.inline != nil {
		pos, order = c.inline.Pos(), c.inline.Rparen
	}
	if c.postCall != nil {
		// a post-commit hook: after the helper's commit (at its Rparen)
		pos, order = c.postCall.Pos(), c.postCall.Rparen+1
	}
	if (c.viaUnit || h != nil && c.unitTx[h]) && (k == evWrite || k == evQuery) && !eff.Unit {
		e := *eff
		e.Unit = true
		eff = &e
	}
	if k == evPublish && (wc.guarded || eff.Guarded) {
		if c.inUnit(wc) {
			// a guarded publish inside a unit: an outbox row on its transaction
			out := *eff
			out.Guarded = true
			c.events = append(c.events, event{kind: evOutbox, pos: pos, order: order, eff: &out, scope: wc.scope, inTx: true,
				async: wc.async, asyncNode: wc.asyncNode, loop: wc.loop, iter: wc.iter, errPath: wc.errPath, errNode: wc.errNode, worker: wc.worker || eff.Worker})
			return
		}
		if !eff.Guarded {
			e := *eff
			e.Guarded = true
			eff = &e
		}
	}
	ev := event{kind: k, pos: pos, order: order, eff: eff, handle: h, base: base,
		async: wc.async, asyncNode: wc.asyncNode, loop: wc.loop, iter: wc.iter, errPath: wc.errPath, errNode: wc.errNode, worker: wc.worker || eff.Worker}
	nonSQL := eff.Store != "" && eff.Store != catalog.SQL
	switch k {
	case evPublish, evCommit:
		ev.scope = wc.scope
	default:
		switch {
		case eff.Unit && c.inUnit(wc):
			ev.scope, ev.inTx = wc.scope, true // joins the unit of the context
		case h != nil && c.scopeOf[h] != nil:
			ev.scope, ev.inTx = c.scopeOf[h], true
		case wc.scope != nil && (nonSQL || eff.CtxTx) && k == evWrite:
			ev.scope, ev.inTx = wc.scope, true // Mongo, Firestore and gdb Model writes join the callback's transaction through ctx
		case eff.InTx && h == nil:
			ev.inTx = true // the callee's own transaction
		case h != nil:
			ev.inTx = c.isTx(h)
		}
	}
	c.events = append(c.events, ev)
}

// isTx reports whether a handle is an open transaction.
func (c *collector) isTx(obj types.Object) bool {
	if c.txVars[obj] || c.cat.IsTxType(obj.Type()) {
		return true
	}
	if v, ok := obj.(*types.Var); ok && !v.IsField() {
		n := strings.ToLower(v.Name())
		return n == "tx" || n == "txn" || strings.HasSuffix(v.Name(), "Tx") || strings.HasPrefix(n, "tx")
	}
	return false
}

// assign tracks transaction handles and values derived from them, and
// local variables that hold one constant string.
func (c *collector) assign(lhs ast.Expr, rhs ast.Expr) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	obj := c.info.Defs[id]
	if obj == nil {
		obj = c.info.Uses[id]
	}
	if obj == nil {
		return
	}
	if v, ok := obj.(*types.Var); ok && !v.IsField() {
		if c.strVals == nil {
			c.strVals = map[types.Object]*string{}
		}
		tv, isConst := c.info.Types[rhs]
		prev, seen := c.strVals[obj]
		if isConst && tv.Value != nil && tv.Value.Kind() == constant.String && !seen {
			s := constant.StringVal(tv.Value)
			c.strVals[obj] = &s
		} else if seen && prev != nil && c.sameSQLKind(*prev, rhs) {
			// every text assigned so far does the same (a wait loop's
			// `;` or SELECT by configuration): the first stands for all
		} else if seen || isConst && tv.Value != nil {
			c.strVals[obj] = nil // assigned more than once: unknown
		} else if s, ok := c.derivedSQL(rhs); ok {
			c.strVals[obj] = &s
		}
	}
	if call, ok := ast.Unparen(rhs).(*ast.CallExpr); ok {
		if fn, ok := typeutil.Callee(c.info, call).(*types.Func); ok {
			if unitRole(fn) == "begin" || c.onAccessor(call) {
				// BeginSQL's transaction, or a value built on a unit
				// accessor (q := db.New(outbox.SQL(ctx, r.db))): the unit's
				if c.unitTx == nil {
					c.unitTx = map[types.Object]bool{}
				}
				c.unitTx[obj] = true
				return
			}
			if e := c.cat.Match(fn); e != nil && e.Kind == catalog.Begin {
				c.setTx(obj)
				return
			}
			// Begin through a team's own interface (DB{ Begin(ctx) (pgx.Tx, error) }):
			// the result is a new transaction, not the handle it was begun on.
			if res := fn.Signature().Results(); strings.HasPrefix(fn.Name(), "Begin") && res.Len() > 0 && c.cat.IsTxType(res.At(0).Type()) {
				c.setTx(obj)
				return
			}
		}
	}
	if r, _ := c.root(rhs); r != nil && r != obj {
		if c.alias == nil {
			c.alias = map[types.Object]types.Object{}
		}
		c.alias[obj] = r
	}
}

// root returns the variable a handle expression stands for (following
// aliases) and the variable the expression starts from.
func (c *collector) root(e ast.Expr) (types.Object, types.Object) {
	for depth := 0; depth < 16; depth++ {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return nil, nil
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.Ident:
			obj := c.info.Uses[x]
			if obj == nil {
				obj = c.info.Defs[x]
			}
			if _, ok := obj.(*types.Var); !ok {
				return nil, nil
			}
			for i := 0; i < 8 && c.alias[obj] != nil; i++ {
				obj = c.alias[obj]
			}
			return obj, obj
		case *ast.SelectorExpr:
			sel := c.info.Selections[x]
			if sel == nil { // package-qualified
				obj := c.info.Uses[x.Sel]
				if _, ok := obj.(*types.Var); ok {
					return obj, obj
				}
				return nil, nil
			}
			if sel.Kind() == types.FieldVal {
				if v, ok := sel.Obj().(*types.Var); ok && v.Embedded() && len(sel.Index()) == 1 {
					// an embedded handle (sqlx: tx.Tx, the *sql.Tx inside *sqlx.Tx)
					// is the value that embeds it: same transaction
					e = x.X
					continue
				}
				_, base := c.root(x.X)
				obj := types.Object(sel.Obj())
				for i := 0; i < 8 && c.alias[obj] != nil; i++ {
					obj = c.alias[obj]
				}
				return obj, base
			}
			e = x.X
		case *ast.CompositeLit:
			// &TxPublisher{tx: tx}: a value built around a transaction is that transaction
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					el = kv.Value
				}
				if r, b := c.root(el); r != nil && c.isTx(r) {
					return r, b
				}
			}
			return nil, nil
		case *ast.CallExpr:
			// a value derived from a transaction (q.WithTx(tx), NewRepo(tx),
			// sql.NewPublisher(tx)) is that transaction; otherwise a method
			// chain (db.WithContext(ctx).Model(x)) is its receiver.
			for _, a := range x.Args {
				if r, b := c.root(a); r != nil && c.isTx(r) {
					return r, b
				}
			}
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && c.info.Selections[sel] != nil {
				e = sel.X
				continue
			}
			return nil, nil
		default:
			return nil, nil
		}
	}
	return nil, nil
}

func (c *collector) recvRoot(call *ast.CallExpr) (types.Object, types.Object) {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && c.info.Selections[sel] != nil {
		return c.root(sel.X)
	}
	return nil, nil
}

// sqlText returns the constant SQL text of a call of an SQL row.
func (c *collector) sqlText(call *ast.CallExpr, row *catalog.Entry) (string, bool) {
	args := call.Args
	if row.SQLInRecv {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok {
			return "", false
		}
		args = inner.Args
	}
	if row.SQL >= len(args) {
		return "", false
	}
	if text, ok := c.constString(args[row.SQL]); ok {
		return text, true
	}
	return c.derivedSQL(args[row.SQL]) // b.String(), a concatenation, Sprintf
}

func (c *collector) constString(e ast.Expr) (string, bool) {
	tv, ok := c.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		// a local variable given one constant (q := `INSERT ...`)
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if s, ok := c.strVals[c.info.Uses[id]]; ok && s != nil {
				return *s, true
			}
		}
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// printfVerb matches a fmt verb in a constant Sprintf format.
var printfVerb = regexp.MustCompile(`%[-+# 0-9.*]*[a-zA-Z]`)

// holes joins SQL text parts, "" marking an unknown part, and keeps the
// text only when reading the unknown parts as an ordinary table name and as
// an outbox table classify it the same (an unknown table decides nothing).
func (c *collector) holes(parts []string) (string, bool) {
	known := false
	for _, p := range parts {
		known = known || strings.TrimSpace(p) != ""
	}
	if !known {
		return "", false
	}
	join := func(hole string) string {
		var b strings.Builder
		for _, p := range parts {
			if p == "" {
				p = " " + hole + " "
			}
			b.WriteString(p)
		}
		return b.String()
	}
	plain, outbox := join("unknown_table"), join("unknown_outbox")
	if catalog.ClassifySQL(plain) != catalog.ClassifySQL(outbox) {
		return "", false
	}
	return plain, true
}

// formatParts splits a constant fmt format at its verbs: the text between
// them, "" for each verb (an unknown part, see holes).
func formatParts(format string) []string {
	var parts []string
	for i, seg := range printfVerb.Split(format, -1) {
		if i > 0 {
			parts = append(parts, "")
		}
		parts = append(parts, seg)
	}
	return parts
}

// builtIdent is the identifier a Builder argument names (b or &b), nil if none.
func builtIdent(e ast.Expr) *ast.Ident {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// sameSQLKind reports whether rhs is known SQL text (a constant, or
// derived) that ClassifySQL puts in the same kind as prev.
func (c *collector) sameSQLKind(prev string, rhs ast.Expr) bool {
	text, ok := c.constString(rhs)
	if !ok {
		if text, ok = c.derivedSQL(rhs); !ok {
			return false
		}
	}
	return catalog.ClassifySQL(text) == catalog.ClassifySQL(prev) && catalog.NoEffectSQL(text) == catalog.NoEffectSQL(prev)
}

// derivedSQL gives the text of a string built from SQL the function knows,
// for classification only:
//   - a concatenation whose constant parts say what the statement does
//     (`INSERT INTO images (...) VALUES (...) ` + conflictClause + ` RETURNING id`):
//     the unknown parts are read as an ordinary table name and as an outbox
//     table in turn, and the text is kept only when both readings agree
//     (an unknown part naming the table decides nothing);
//   - fmt.Sprintf with a constant format, its verbs read the same way;
//   - the first result of a call outside the standard library that takes
//     one known SQL text and returns a string (sqlx's BindNamed, Rebind and
//     In, a dialect helper): the same statement with its parameters rewritten.
func (c *collector) derivedSQL(e ast.Expr) (string, bool) {
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return "", false
		}
		var parts []string // "" marks an unknown part
		known := false
		var flat func(e ast.Expr) bool
		flat = func(e ast.Expr) bool {
			if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
				return flat(b.X) && flat(b.Y)
			}
			if s, ok := c.constString(e); ok {
				parts = append(parts, s)
				known = known || strings.TrimSpace(s) != ""
				return true
			}
			if t := c.info.TypeOf(e); t == nil || !types.Identical(t.Underlying(), types.Typ[types.String]) {
				return false
			}
			parts = append(parts, "")
			return true
		}
		if !flat(x) || !known {
			return "", false
		}
		return c.holes(parts)
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(c.info, x).(*types.Func)
		builder := ok && builderPkg(fn)
		if builder && (fn.FullName() == "(*strings.Builder).String" || fn.FullName() == "(*bytes.Buffer).String") {
			sel, _ := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if sel == nil {
				return "", false
			}
			id, _ := ast.Unparen(sel.X).(*ast.Ident)
			if id == nil {
				return "", false
			}
			parts := c.built[c.info.Uses[id]]
			return c.holes(parts)
		}
		if builder && fn.FullName() == "fmt.Sprintf" && len(x.Args) > 0 {
			// a constant format: its verbs are the unknown parts
			format, ok := c.constString(x.Args[0])
			if !ok {
				return "", false
			}
			return c.holes(formatParts(format))
		}
		if !ok || fn.Pkg() == nil || isStdPath(fn.Pkg().Path()) {
			return "", false
		}
		res := fn.Signature().Results()
		if res.Len() == 0 || !types.Identical(res.At(0).Type(), types.Typ[types.String]) {
			return "", false
		}
		text, n := "", 0
		for _, a := range x.Args {
			if s, ok := c.constString(a); ok && catalog.ClassifySQL(s) != catalog.SQLRead {
				text, n = s, n+1
			}
		}
		return text, n == 1
	}
	return "", false
}

// closureVars finds the local variables of a body bound once, where they
// are declared, to a closure (send := func() error {...}; var f = func(){...})
// and never assigned again.
func closureVars(info *types.Info, body *ast.BlockStmt) map[types.Object]*ast.FuncLit {
	var out map[types.Object]*ast.FuncLit
	var assigned map[types.Object]int
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok {
					continue
				}
				obj := info.Defs[id]
				if obj == nil {
					obj = info.Uses[id]
				}
				if obj == nil {
					continue
				}
				if assigned == nil {
					assigned = map[types.Object]int{}
				}
				assigned[obj]++
				if n.Tok == token.DEFINE && len(n.Rhs) == len(n.Lhs) {
					if lit, ok := ast.Unparen(n.Rhs[i]).(*ast.FuncLit); ok && info.Defs[id] != nil {
						if out == nil {
							out = map[types.Object]*ast.FuncLit{}
						}
						out[obj] = lit
					}
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) {
					if lit, ok := ast.Unparen(n.Values[i]).(*ast.FuncLit); ok {
						if out == nil {
							out = map[types.Object]*ast.FuncLit{}
						}
						out[info.Defs[id]] = lit
					}
				}
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && n.Op == token.AND {
				if assigned == nil {
					assigned = map[types.Object]int{}
				}
				assigned[info.Uses[id]] += 2 // its address is taken: may change
			}
		}
		return true
	})
	for obj := range out {
		if assigned[obj] > 1 {
			delete(out, obj)
		}
	}
	return out
}

// addLit queues a closure as a unit of its own, unless it is a variable's
// (queued where it was defined).
func (c *collector) addLit(lit *ast.FuncLit, fromVar bool) {
	if !fromVar {
		c.lits = append(c.lits, lit)
	}
}

// closureVar returns the closure a variable argument is bound to, if any.
func (c *collector) closureVar(e ast.Expr) *ast.FuncLit {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || c.litVars == nil {
		return nil
	}
	return c.litVars[c.info.Uses[id]]
}

// isStdPath: an import path of the standard library (no dot in its first element).
func isStdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// paramIndex returns the index of the unit's parameter e names, or -1.
func (c *collector) isParam(v *types.Var) bool {
	for _, p := range c.params {
		if p == v {
			return true
		}
	}
	return false
}

func (c *collector) paramIndex(e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return -1
	}
	obj := c.info.Uses[id]
	for i, p := range c.params {
		if obj == p {
			return i
		}
	}
	return -1
}

// outboxTarget reports whether a store write targets an outbox table or
// collection: gorm Create of an *Outbox* model, .Table("outbox"),
// Collection("outbox") in the receiver chain.
func (c *collector) outboxTarget(call *ast.CallExpr, row *catalog.Entry) bool {
	if strings.HasSuffix(row.Name, ".Create") || strings.HasSuffix(row.Name, ".Save") || strings.HasSuffix(row.Name, "InsertOne") {
		for _, a := range call.Args {
			if t := c.info.TypeOf(a); t != nil && typeNameContains(t, "outbox") {
				return true
			}
		}
	}
	e := call.Fun
	for depth := 0; depth < 8; depth++ {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			return false
		}
		inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		for _, a := range inner.Args {
			if s, ok := c.constString(a); ok && strings.Contains(strings.ToLower(s), "outbox") {
				return true
			}
		}
		e = inner.Fun
	}
	return false
}

// tempTableCopy reports whether a CopyFrom fills a temporary table the
// same function creates: the table identifier is a variable the function
// also formats into a CREATE TEMP[ORARY] TABLE statement (the name built at
// run time, the table dropped at commit). Such a copy stages ids for a
// read, it stores nothing an event could announce.
func (c *collector) tempTableCopy(call *ast.CallExpr, row *catalog.Entry) bool {
	if !strings.HasSuffix(row.Name, ".CopyFrom") || c.body == nil || len(call.Args) < 2 {
		return false
	}
	lit, ok := ast.Unparen(call.Args[1]).(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return false
	}
	id, ok := ast.Unparen(lit.Elts[len(lit.Elts)-1]).(*ast.Ident)
	if !ok || c.info.Uses[id] == nil {
		return false
	}
	table := c.info.Uses[id]
	found := false
	ast.Inspect(c.body, func(n ast.Node) bool {
		fc, ok := n.(*ast.CallExpr)
		if !ok || found || len(fc.Args) < 2 {
			return !found
		}
		format, ok := c.constString(fc.Args[0])
		if !ok || !isCreateTemp(format) {
			return true
		}
		for _, a := range fc.Args[1:] {
			if aid, ok := ast.Unparen(a).(*ast.Ident); ok && c.info.Uses[aid] == table {
				found = true
			}
		}
		return !found
	})
	return found
}

// isCreateTemp reports whether SQL text creates a temporary table.
func isCreateTemp(sql string) bool {
	f := strings.Fields(strings.ToUpper(sql))
	if len(f) < 3 || f[0] != "CREATE" {
		return false
	}
	i := 1
	if f[i] == "GLOBAL" || f[i] == "LOCAL" {
		i++
	}
	return i+1 < len(f) && (f[i] == "TEMP" || f[i] == "TEMPORARY") && f[i+1] == "TABLE"
}

// dynamoOutboxItem reports whether a TransactWriteItems call puts an item
// into a table named like outbox (TableName: aws.String("outbox"), a
// constant, or a variable or field named so). The items are looked for in
// the call, then, when they were built beforehand, in the function body.
func (c *collector) dynamoOutboxItem(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		if c.hasOutboxPut(a) {
			return true
		}
	}
	return c.body != nil && c.hasOutboxPut(c.body)
}

func (c *collector) hasOutboxPut(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if found || !ok {
			return !found
		}
		if k, ok := kv.Key.(*ast.Ident); !ok || k.Name != "Put" {
			return true
		}
		lit, ok := ast.Unparen(kv.Value).(*ast.CompositeLit)
		if u, isAddr := ast.Unparen(kv.Value).(*ast.UnaryExpr); isAddr && u.Op == token.AND {
			lit, ok = ast.Unparen(u.X).(*ast.CompositeLit)
		}
		if !ok {
			return true
		}
		for _, el := range lit.Elts {
			if f, ok := el.(*ast.KeyValueExpr); ok {
				if k, ok := f.Key.(*ast.Ident); ok && k.Name == "TableName" && c.namesOutbox(f.Value) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// namesOutbox: the expression holds a constant string or a name containing "outbox".
func (c *collector) namesOutbox(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case ast.Expr:
			if s, ok := c.constString(x); ok {
				found = found || strings.Contains(strings.ToLower(s), "outbox")
				return false
			}
			if id, ok := x.(*ast.Ident); ok && strings.Contains(strings.ToLower(id.Name), "outbox") {
				found = true
			}
		}
		return !found
	})
	return found
}

func typeNameContains(t types.Type, s string) bool {
	for {
		switch u := t.(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		}
		break
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && strings.Contains(strings.ToLower(n.Obj().Name()), s)
}

// outboxWriter recognises a call into an outbox writer: outbox.Insert(ctx,
// tx, msg) in a package named outbox, or an Insert/Save/Add/Store method of
// a type named *outbox*. It returns the handle the row is written on.
func (c *collector) outboxWriter(call *ast.CallExpr, fn *types.Func) (types.Object, bool) {
	name := fn.Name()
	if !(strings.HasPrefix(name, "Insert") || strings.HasPrefix(name, "Save") || strings.HasPrefix(name, "Add") ||
		strings.HasPrefix(name, "Store") || strings.HasPrefix(name, "Write") || strings.HasPrefix(name, "Enqueue") || strings.HasPrefix(name, "Append")) {
		return nil, false
	}
	recv := fn.Signature().Recv()
	inOutbox := fn.Pkg() != nil && strings.Contains(strings.ToLower(fn.Pkg().Name()), "outbox")
	if !inOutbox && (recv == nil || !typeNameContains(recv.Type(), "outbox")) {
		return nil, false
	}
	if inOutbox && recv == nil && name != "Insert" && !strings.HasPrefix(name, "Insert") {
		return nil, false
	}
	// the handle: the first non-context argument when the call carries a
	// message too, else the receiver
	var rest []ast.Expr
	for _, a := range call.Args {
		if t := c.info.TypeOf(a); t != nil && isContext(t) {
			continue
		}
		rest = append(rest, a)
	}
	if len(rest) >= 2 {
		h, _ := c.root(rest[0])
		return h, true
	}
	h, _ := c.recvRoot(call)
	return h, true
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// isResultMethod is the fallback: a method returning database/sql.Result
// (go-zero, home-made wrappers, sqlc's DBTX) or a pgconn.CommandTag (sqlc
// on pgx) writes.
func isResultMethod(fn *types.Func) bool {
	sig := fn.Signature()
	if sig.Recv() == nil || catalog.ReadBuilder(sig.Recv().Type()) {
		return false
	}
	res := sig.Results()
	for i := 0; i < res.Len(); i++ {
		n, ok := types.Unalias(res.At(i).Type()).(*types.Named)
		if !ok || n.Obj().Pkg() == nil {
			continue
		}
		switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
		case "database/sql.Result", "github.com/jackc/pgx/v5/pgconn.CommandTag", "github.com/jackc/pgconn.CommandTag":
			return true
		}
	}
	return false
}

// isErrCheck reports whether cond is `err != nil` for a variable of type error.
func isErrCheck(info *types.Info, cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch b.Op {
	case token.LAND: // err != nil && ...: only when there is an error
		return isErrCheck(info, b.X) || isErrCheck(info, b.Y)
	case token.LOR: // err != nil || reset: also without one, unless both are error checks
		return isErrCheck(info, b.X) && isErrCheck(info, b.Y)
	}
	return b.Op == token.NEQ && errVsNil(info, b)
}

// errVsNil reports whether a comparison is of a value of type error with nil.
func errVsNil(info *types.Info, b *ast.BinaryExpr) bool {
	x, y := b.X, b.Y
	if isNil(info, x) {
		x, y = y, x
	}
	if !isNil(info, y) {
		return false
	}
	t := info.TypeOf(x)
	return t != nil && types.Identical(t, errorType)
}

var errorType = types.Universe.Lookup("error").Type()

// untilSuccess reports whether a loop without a condition leaves once a
// call succeeds (`if err == nil { return ... }` or `break`): a retry,
// whose calls are the caller's, not a background worker's endless loop.
func untilSuccess(info *types.Info, loop *ast.ForStmt) bool {
	found := false
	ast.Inspect(loop.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt, *ast.SelectStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
			return false // a break there leaves something else
		case *ast.IfStmt:
			if isSuccessCheck(info, x.Cond) && len(x.Body.List) > 0 {
				switch last := x.Body.List[len(x.Body.List)-1].(type) {
				case *ast.ReturnStmt:
					found = true
				case *ast.BranchStmt:
					found = last.Tok == token.BREAK && last.Label == nil
				}
			}
		}
		return !found
	})
	return found
}

// isSuccessCheck: err == nil for a value of type error.
func isSuccessCheck(info *types.Info, cond ast.Expr) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	return ok && b.Op == token.EQL && errVsNil(info, b)
}

func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := info.Uses[id].(*types.Nil)
	return isNil
}

// paramHandle maps a handle seen inside the function to the caller's view.
func (c *collector) paramHandle(h, base types.Object) int {
	if h == nil {
		return HandleInternal
	}
	if c.recv != nil && (h == c.recv || base == c.recv) {
		return HandleRecv
	}
	for i, p := range c.params {
		if h == p || base == p && base == h {
			return i
		}
	}
	return HandleInternal
}

// isRegistration reports whether a method stores the closure it is given
// as argument i for later (an event dispatcher's Register, a router's
// Handle) instead of running it during the call: decided from the method's
// body when there is one, by the method's name otherwise.
func (c *collector) isRegistration(fn *types.Func, runs *Runs, i int) bool {
	if fn.Signature().Recv() == nil {
		return false
	}
	switch runs.kind(i) {
	case runNever:
		return true
	case runSync, runGo:
		return false
	}
	return registrationName(fn)
}

// wrapsClosure: a function without a body to read that returns a function
// or an interface value (a handler built around the closure, as
// httputil.MakeAuthAPI(name, func(req) Response {...}) returns an
// http.Handler) runs the closure later, not during the call.
func wrapsClosure(fn *types.Func) bool {
	res := fn.Signature().Results()
	for i := 0; i < res.Len(); i++ {
		t := res.At(i).Type()
		if types.Identical(t, errorType) {
			continue
		}
		if _, ok := t.Underlying().(*types.Signature); ok {
			return true
		}
		if types.IsInterface(t) {
			return true
		}
	}
	return false
}

// registrationName is the fallback for methods without a body to read.
func registrationName(fn *types.Func) bool {
	for _, p := range []string{"Register", "Subscribe", "On", "Handle", "AddHandler", "AddListener", "Listen", "Use"} {
		if strings.HasPrefix(fn.Name(), p) {
			return true
		}
	}
	return false
}

// register records what a closure registered with a dispatcher publishes.
func (c *collector) register(fn *types.Func, lit *ast.FuncLit) {
	tn := recvTypeName(fn.Signature().Recv())
	if tn == nil || c.dispatch == nil || c.libraryType(tn) {
		return
	}
	if _, done := c.dispatch[tn]; done {
		return
	}
	sub := newCollector(c.info, c.fset, c.cat, c.pkg, c.effectsOf)
	sub.runsOf = c.runsOf
	sub.dispatch = c.dispatch
	sig, _ := c.info.TypeOf(lit).(*types.Signature)
	sub.unit(sig, lit.Body)
	if eff := sub.summarize(); eff != nil && eff.Publish != nil {
		c.dispatch[tn] = eff.Publish
		c.dispatchChanged = true
	}
}

// registerFunc records what a function or method value registered with a
// dispatcher publishes, from its summary.
func (c *collector) registerFunc(fn *types.Func, arg ast.Expr) {
	handler := c.funcRef(arg)
	tn := recvTypeName(fn.Signature().Recv())
	if handler == nil || tn == nil || c.dispatch == nil || c.effectsOf == nil || c.libraryType(tn) {
		return
	}
	if _, done := c.dispatch[tn]; done {
		return
	}
	if eff, iface := c.effectsOf(handler); eff != nil && eff.Publish != nil {
		c.dispatch[tn] = eff.Publish.through(handler.Origin().FullName(), iface, HandleInternal)
		c.dispatchChanged = true
	}
}

// dynamicCall: a call of a function value. Inside a dispatcher's method it
// runs the registered closures.
func (c *collector) dynamicCall(call *ast.CallExpr, wc wctx) {
	c.dynamic = true
	if c.recv == nil || len(c.dispatch) == 0 {
		return
	}
	if !c.fromRecvField(call.Fun, 0) {
		return // a closure called in place, a local func value: not what was registered
	}
	if t := c.info.TypeOf(call.Fun); t != nil {
		if sig, ok := t.Underlying().(*types.Signature); ok && decorator(sig) {
			return // hf = s.mw[i](hf): a middleware wraps the handler, it does not run it
		}
	}
	tn := recvTypeName(c.recv)
	if e := c.dispatch[tn]; e != nil {
		out := *e // the chain continues with the registered method, if named
		out.Handle = HandleInternal
		c.add(evPublish, call.Pos(), call.Rparen, &out, nil, nil, wc)
	}
}

// decorator: a function that takes a function and returns one (a
// middleware, func(next Handler) Handler).
func decorator(sig *types.Signature) bool {
	if sig.Results().Len() != 1 {
		return false
	}
	if _, ok := sig.Results().At(0).Type().Underlying().(*types.Signature); !ok {
		return false
	}
	for i := 0; i < sig.Params().Len(); i++ {
		if _, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// fromRecvField reports whether a called function value may come from what
// the receiver stores: a field of the receiver (d.handler, d.subs[i]), or a
// local variable bound from one (for _, h := range d.handlers[name];
// h, ok := d.byName[n]). A closure called in place (go func(){...}()) or a
// func value the method got elsewhere (unsub := sub.Unsubscribe) does not
// run the registered handlers.
func (c *collector) fromRecvField(x ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	switch e := ast.Unparen(x).(type) {
	case *ast.SelectorExpr:
		if sel := c.info.Selections[e]; sel != nil && sel.Kind() == types.FieldVal {
			if id, ok := ast.Unparen(e.X).(*ast.Ident); ok {
				return c.info.Uses[id] == c.recv
			}
			return c.fromRecvField(e.X, depth+1)
		}
		return false
	case *ast.IndexExpr:
		return c.fromRecvField(e.X, depth+1)
	case *ast.CallExpr:
		return true // a getter's result: what it returns is not looked into
	case *ast.Ident:
		v, ok := c.info.Uses[e].(*types.Var)
		if !ok || c.body == nil {
			return false
		}
		if v == c.recv {
			return true // a receiver of func type: func (f HandlerFunc) Serve() { f(...) }
		}
		found := false
		ast.Inspect(c.body, func(n ast.Node) bool {
			if found {
				return false
			}
			switch st := n.(type) {
			case *ast.RangeStmt:
				for _, lhs := range []ast.Expr{st.Key, st.Value} {
					if id, ok := lhs.(*ast.Ident); ok && c.info.ObjectOf(id) == v && c.fromRecvField(st.X, depth+1) {
						found = true
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range st.Lhs {
					id, ok := lhs.(*ast.Ident)
					if !ok || c.info.ObjectOf(id) != v {
						continue
					}
					rhs := st.Rhs[0]
					if len(st.Rhs) == len(st.Lhs) {
						rhs = st.Rhs[i]
					}
					if c.fromRecvField(rhs, depth+1) {
						found = true
					}
				}
			case *ast.ValueSpec:
				for i, id := range st.Names {
					if c.info.Defs[id] == v && i < len(st.Values) && c.fromRecvField(st.Values[i], depth+1) {
						found = true
					}
				}
			}
			return true
		})
		return found
	}
	return false
}

// libraryType: a type of a package the catalog has rows for (gin's
// RouterGroup, a scheduler): its rows say what registering with it means,
// so it is never taken for a dispatcher that runs what was registered.
func (c *collector) libraryType(tn *types.TypeName) bool {
	return tn.Pkg() != nil && c.cat.Declares(tn.Pkg().Path())
}

func recvTypeName(recv types.Object) *types.TypeName {
	if recv == nil {
		return nil
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj()
	}
	return nil
}

// isWorkerBody reports whether a goroutine body is a background worker: it
// loops without end (for {}) or over a channel.
func isWorkerBody(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			if x.Cond == nil && !untilSuccess(info, x) {
				found = true
			}
		case *ast.RangeStmt:
			if isChan(info.TypeOf(x.X)) {
				found = true
			}
		}
		return !found
	})
	return found
}

func isChan(t types.Type) bool {
	_, ok := underChan(t)
	return ok
}

// underChan returns t's underlying channel type, if it is one.
func underChan(t types.Type) (*types.Chan, bool) {
	if t == nil {
		return nil, false
	}
	ch, ok := t.Underlying().(*types.Chan)
	return ch, ok
}

// isConstructor: a package-level function named New... or new... (Go's
// constructor convention) that returns a value: a component built at
// start-up.
func isConstructor(fn *types.Func) bool {
	if fn.Signature().Recv() != nil || fn.Signature().Results().Len() == 0 {
		return false
	}
	name := fn.Name()
	if !strings.HasPrefix(name, "New") && !strings.HasPrefix(name, "new") {
		return false
	}
	rest := name[3:]
	if rest != "" && !unicode.IsUpper(rune(rest[0])) {
		return false
	}
	// newRun(ctx, ...) (*Run, error) that inserts the run it returns: a
	// record mapped to a table or collection is data a request creates,
	// not a component built at start-up
	return !storedRecord(fn.Signature().Results().At(0).Type())
}

// storageTags are struct tag keys that map a field to a column or
// document field.
var storageTags = []string{"gorm", "db", "bun", "bson", "pg", "dynamodbav", "firestore", "datastore", "spanner", "sql"}

// storedRecord: t (or what it points to) is a struct with a field mapped
// to a store by its tag.
func storedRecord(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		tag := reflect.StructTag(st.Tag(i))
		for _, k := range storageTags {
			if _, ok := tag.Lookup(k); ok {
				return true
			}
		}
	}
	return false
}

// compositeArg is the struct literal an argument is (T{...} or &T{...}),
// or the one a local holds (opts := T{...}; helper(ctx, &opts)).
func (c *collector) compositeArg(x ast.Expr) *ast.CompositeLit {
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	if id, ok := x.(*ast.Ident); ok && c.body != nil {
		if v, ok := c.info.Uses[id].(*types.Var); ok && !v.IsField() {
			if vals := localValues(c.info, c.body, v); len(vals) == 1 {
				x = ast.Unparen(vals[0])
				if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
					x = ast.Unparen(u.X)
				}
			}
		}
	}
	cl, _ := x.(*ast.CompositeLit)
	return cl
}

// returnedLits are the closures lit returns as its first result: written
// out, or a local assigned one (post = func() error {...}; return post, nil).
func returnedLits(info *types.Info, lit *ast.FuncLit) []*ast.FuncLit {
	var out []*ast.FuncLit
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false // a nested closure's returns are its own
		case *ast.ReturnStmt:
			if len(x.Results) == 0 {
				return true
			}
			r := ast.Unparen(x.Results[0])
			if fl, ok := r.(*ast.FuncLit); ok {
				out = append(out, fl)
			} else if id, ok := r.(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					for _, val := range localValues(info, lit.Body, v) {
						if fl, ok := ast.Unparen(val).(*ast.FuncLit); ok {
							out = append(out, fl)
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// instIface: a call of a generic interface's method on a receiver of an
// instantiated interface type (MessageStream[RawMessage, ...]) calls the
// method of that instantiation, whose implementations the program has.
func (c *collector) instIface(call *ast.CallExpr, fn *types.Func) *types.Func {
	recv := fn.Signature().Recv()
	if recv == nil || !types.IsInterface(recv.Type()) || !hasTypeParam(recv.Type(), 0) {
		return fn
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return fn
	}
	s := c.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) || hasTypeParam(s.Recv(), 0) {
		return fn
	}
	sig, ok := s.Type().(*types.Signature)
	if !ok {
		return fn
	}
	return c.instMethod(fn, s.Recv(), sig)
}

// walkedParam records that the value of fn's parameter i was walked at the
// call (a closure the callee runs before it returns): the callee's summary
// may hold the same effects through its call of the parameter
// (paramfuncs.go), which this call must not count twice.
func walkedParam(walked map[string]bool, fn *types.Func, i int) map[string]bool {
	if fn == nil {
		return walked
	}
	params := fn.Origin().Signature().Params()
	if i >= params.Len() {
		i = params.Len() - 1
	}
	if i < 0 {
		return walked
	}
	if walked == nil {
		walked = map[string]bool{}
	}
	walked[params.At(i).Name()] = true
	return walked
}

// withoutParams drops from a callee's effects the write and the publish it
// makes by calling a parameter whose value the caller walked itself.
func withoutParams(eff *Effects, walked map[string]bool) *Effects {
	if len(walked) == 0 {
		return eff
	}
	via := func(e *Effect) bool { return e != nil && len(e.Via) > 0 && walked[e.Via[0]] }
	if !via(eff.Write) && !via(eff.Publish) {
		return eff
	}
	out := *eff
	if via(out.Write) {
		out.Write = nil
	}
	if via(out.Publish) {
		out.Publish = nil
	}
	return &out
}
