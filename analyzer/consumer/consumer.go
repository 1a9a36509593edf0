package consumer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/catalog"
	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// Guard says how a consumer handler is protected against redelivery.
type Guard string

const (
	GuardInbox      Guard = "inbox"      // records the message in the inbox (SQL or an inbox package)
	GuardIdempotent Guard = "idempotent" // every DB write is an upsert or otherwise repeatable
	GuardNone       Guard = "none"       // writes that repeat on redelivery
	GuardNoWrites   Guard = "no-writes"  // no DB write found in the handler
)

// Consumer is one consumer entry point and what its handler does.
type Consumer struct {
	Call     dualwrite.Call // the entry point (Subscribe, FetchMessage, Receive, ...)
	Func     string         // full name of the function holding the entry point call
	Package  string         // import path of the package
	Handler  string         // the handler: a function's full name, or "closure", "code after the call"
	Guard    Guard
	Writes   []dualwrite.Call // DB writes reached from the handler
	External []External       // external API calls reached from the handler
}

// External is an external API call made by a consumer handler.
type External struct {
	Call  dualwrite.Call // Name is the API reached (the followed function when one level deep)
	Keyed bool           // an idempotency key derived from the message id is passed
}

// Result is the analyzer's result for one package.
type Result struct {
	Findings  []dualwrite.Finding // OBX101 and OBX102, in source order
	Consumers []Consumer
}

// Analyzer reports consumer handlers that are not safe under redelivery,
// with the built-in catalog (flags: -tests, -external).
var Analyzer = NewAnalyzer(Options{})

// Options configure an analyzer instance (the CLI builds one per run from
// .outboxify.yaml).
type Options struct {
	// Config adds the team's writers to the catalog and excludes paths.
	Config *config.Config
	// Tests also checks _test.go files.
	Tests bool
	// External are full names of extra external APIs (payment, email
	// clients of the team's own) that need an idempotency key.
	External []string
}

// NewAnalyzer returns the consumer analyzer for opts.
func NewAnalyzer(opts Options) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:       "outboxconsumer",
		Doc:        "report broker consumers whose handler writes without the inbox or an idempotent upsert (OBX101), or calls an external API without an idempotency key (OBX102)",
		URL:        docURL,
		FactTypes:  []analysis.Fact{new(funcFact)},
		ResultType: reflect.TypeFor[*Result](),
	}
	tests := opts.Tests || opts.Config != nil && opts.Config.Tests
	var external string
	a.Flags.BoolVar(&tests, "tests", tests, "also check _test.go files")
	a.Flags.StringVar(&external, "external", "", "comma-separated full names of extra external APIs, e.g. (*example.com/pay.Client).Charge")
	cat := catalog.Default().With(opts.Config.Rows())
	a.Run = func(pass *analysis.Pass) (any, error) {
		ext := map[string]bool{}
		for _, n := range append(append(strings.Split(external, ","), opts.External...), opts.Config.ExternalNames()...) {
			if n = strings.TrimSpace(n); n != "" {
				ext[n] = true
			}
		}
		c := &checker{pass: pass, decls: map[*types.Func]*ast.FuncDecl{}, closures: map[types.Object]*ast.FuncLit{},
			catalog: cat, tests: tests, external: ext, config: opts.Config}
		return c.run()
	}
	return a
}

// docURL documents the rules.
const docURL = "https://pkg.go.dev/github.com/outboxify/outboxify/analyzer/consumer"

func (c *checker) run() (any, error) {
	pass := c.pass
	c.index()
	c.summarize()
	res := &Result{}
	if c.inGOROOT() {
		return res, nil // no broker client or inbox glue is called from the standard library
	}
	// One walk per file with its own stack: building an inspector for every
	// package (most of them dependencies with no consumer) costs more than
	// the walk it would serve.
	var stack []ast.Node
	visit := func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
		if fn == nil {
			return true
		}
		ep, ok := entryPointOf(c.catalog, c.pass.TypesInfo, call, fn)
		if !ok {
			if isInboxGlue(fn) && !isInboxPkg(c.pass.Pkg) {
				// The service hands its reader to the inbox's consumer
				// glue: a consumer that goes through the inbox.
				res.Consumers = append(res.Consumers, Consumer{
					Call: c.call(call, fn.FullName()), Func: enclosingFunc(pass, stack),
					Package: pass.Pkg.Path(), Handler: fn.FullName(), Guard: GuardInbox,
				})
			}
			return true
		}
		c.consumer(res, call, fn, ep, stack)
		return true
	}
	for _, f := range pass.Files {
		if c.skipFile(f.Pos()) {
			continue
		}
		stack = stack[:0]
		ast.Inspect(f, visit)
	}
	return res, nil
}

type checker struct {
	pass      *analysis.Pass
	catalog   *catalog.Catalog
	tests     bool
	external  map[string]bool // configured external APIs
	config    *config.Config
	summaries map[*types.Func]*funcFact
	decls     map[*types.Func]*ast.FuncDecl
	closures  map[types.Object]*ast.FuncLit // handler := func(...) {...}
}

func (c *checker) index() {
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, r := range n.Rhs {
					if lit, ok := r.(*ast.FuncLit); ok && i < len(n.Lhs) && len(n.Lhs) == len(n.Rhs) {
						if id, ok := n.Lhs[i].(*ast.Ident); ok {
							if obj := c.pass.TypesInfo.ObjectOf(id); obj != nil {
								c.closures[obj] = lit
							}
						}
					}
				}
			case *ast.ValueSpec:
				for i, r := range n.Values {
					if lit, ok := r.(*ast.FuncLit); ok && i < len(n.Names) {
						if obj := c.pass.TypesInfo.Defs[n.Names[i]]; obj != nil {
							c.closures[obj] = lit
						}
					}
				}
			}
			return true
		})
	}
}

// root is a piece of handler code: node, from position from onward.
type root struct {
	node ast.Node
	from token.Pos
}

func (c *checker) consumer(res *Result, call *ast.CallExpr, fn *types.Func, ep entryPoint, stack []ast.Node) {
	w := &walker{checker: c, derived: map[types.Object]bool{}, visited: map[*ast.FuncDecl]bool{}, summaries: c.summaries}
	var roots []root
	handler := ""
	switch ep.Shape {
	case shapeCallback:
		if ep.Arg < len(call.Args) {
			roots, handler = w.resolveHandler(call.Args[ep.Arg], 0)
		}
	case shapeHandlerType:
		if ep.Arg < len(call.Args) {
			if t := c.pass.TypesInfo.TypeOf(call.Args[ep.Arg]); t != nil {
				for _, name := range handlerMethods {
					obj, _, _ := types.LookupFieldOrMethod(t, true, c.pass.Pkg, name)
					if m, ok := obj.(*types.Func); ok {
						handler = m.FullName()
						var fact funcFact
						switch d := c.decls[m]; {
						case d != nil:
							roots = []root{{node: d.Body}}
						case isInboxPkg(m.Pkg()):
							w.inbox = true // the inbox package's handler type
						case c.pass.ImportObjectFact(m.Origin(), &fact):
							w.apply(call, m, &fact, 0, nil)
						}
						break
					}
				}
			}
		}
	case shapePull:
		if body := enclosingBody(stack); body != nil {
			roots = []root{{node: body, from: call.End()}}
			handler = "code after the call"
		}
	}
	if handler == "" {
		handler = "unresolved handler"
	}
	for _, r := range roots {
		w.derive(r)
	}
	for _, r := range roots {
		w.findIdempotencyHeader(r)
	}
	for _, r := range roots {
		w.walk(r, 0, nil)
	}

	entry := c.call(call, fn.FullName())
	con := Consumer{
		Call:    entry,
		Func:    enclosingFunc(c.pass, stack),
		Package: c.pass.Pkg.Path(),
		Handler: handler,
	}
	var unguarded *dualwrite.Call
	for _, wr := range w.writes {
		con.Writes = append(con.Writes, wr.call)
		if !wr.idempotent && unguarded == nil {
			u := wr.call
			unguarded = &u
		}
	}
	switch {
	case w.inbox:
		con.Guard = GuardInbox
	case len(w.writes) == 0:
		con.Guard = GuardNoWrites
	case unguarded == nil:
		con.Guard = GuardIdempotent
	default:
		con.Guard = GuardNone
	}
	if con.Guard == GuardNone {
		msg := fmt.Sprintf("consumer handler (%s) writes to the database without the inbox or an idempotent upsert: a redelivered message is applied twice", shortName(handler))
		c.report(res, dualwrite.Finding{
			Rule:    dualwrite.RuleConsumerInbox,
			Message: msg,
			Func:    con.Func,
			Publish: entry,
			Write:   unguarded,
			Store:   "sql",
			Advice:  "record the message id in the inbox table in the same transaction as the write (INSERT INTO inbox ... ON CONFLICT DO NOTHING; skip when it already exists) and ack after commit, or make the write an upsert keyed by the entity",
		})
	}
	for _, e := range w.externals {
		con.External = append(con.External, External{Call: e.call, Keyed: e.keyed})
		if e.keyed {
			continue
		}
		pos := e.call.Position
		msg := fmt.Sprintf("consumer handler (%s) calls external API %s at %s:%d without an idempotency key derived from the message id: a redelivery repeats the side effect", shortName(handler), shortName(e.call.Name), shortFile(pos.Filename), pos.Line)
		ext := e.call
		c.report(res, dualwrite.Finding{
			Rule:    dualwrite.RuleExternalNoKey,
			Message: msg,
			Func:    con.Func,
			Publish: entry,
			Write:   &ext,
			Store:   "external",
			Advice:  "pass the message id (outbox-id header, or the broker's message id) as the API's idempotency key",
		})
	}
	res.Consumers = append(res.Consumers, con)
}

func (c *checker) report(res *Result, f dualwrite.Finding) {
	res.Findings = append(res.Findings, f)
	// The rule id leads the message, as in the dual-write analyzer's
	// diagnostics, so go vet and golangci-lint output names the rule.
	d := analysis.Diagnostic{Pos: f.Publish.Pos, Category: f.Rule, Message: f.Rule + " " + f.Message, URL: docURL}
	if f.Write != nil {
		d.Related = []analysis.RelatedInformation{{Pos: f.Write.Pos, Message: "DB write " + catalog.Short(f.Write.Name)}}
	}
	c.pass.Report(d)
}

func (c *checker) call(n ast.Node, name string) dualwrite.Call {
	return dualwrite.Call{Pos: n.Pos(), Position: c.pass.Fset.Position(n.Pos()), Name: name}
}

// walker collects what a handler does.
type walker struct {
	*checker
	inbox       bool
	writes      []write
	externals   []external
	derived     map[types.Object]bool // locals holding a value derived from the message id
	visited     map[*ast.FuncDecl]bool
	summaries   map[*types.Func]*funcFact // this package's functions (see summarize)
	summarizing bool                      // computing summaries: never walk into callees
	// idempotencyHeaderSet: the handler sets an Idempotency-Key style
	// header to a value derived from the message id (direct net/http use).
	idempotencyHeaderSet bool
}

type write struct {
	call       dualwrite.Call
	idempotent bool
}

type external struct {
	call  dualwrite.Call
	keyed bool
}

// resolveHandler finds the code of a handler expression.
func (w *walker) resolveHandler(e ast.Expr, depth int) ([]root, string) {
	info := w.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return []root{{node: e.Body}}, "closure"
	case *ast.Ident, *ast.SelectorExpr:
		id, ok := e.(*ast.Ident)
		if !ok {
			id = e.(*ast.SelectorExpr).Sel
		}
		switch obj := info.Uses[id].(type) {
		case *types.Func:
			if d := w.decls[obj]; d != nil {
				return []root{{node: d.Body}}, obj.FullName()
			}
			if isInboxPkg(obj.Pkg()) {
				w.inbox = true
			}
			return nil, obj.FullName()
		case *types.Var:
			if lit := w.closures[obj]; lit != nil {
				return []root{{node: lit.Body}}, "closure " + obj.Name()
			}
		}
	case *ast.CallExpr:
		if tv, ok := info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return w.resolveHandler(e.Args[0], depth) // conversion to a handler type
		}
		fn, _ := typeutil.Callee(info, e).(*types.Func)
		var roots []root
		name := "handler returned by a call"
		if fn != nil {
			name = "handler returned by " + fn.FullName()
			if isInboxPkg(fn.Pkg()) {
				w.inbox = true // the inbox glue wraps the handler
			}
		}
		// Middleware and factories: the handler is an argument or what the
		// factory returns.
		for _, a := range e.Args {
			if r, _ := w.resolveHandler(a, depth+1); depth < 2 && r != nil {
				if _, ok := ast.Unparen(a).(*ast.FuncLit); ok || isFuncValue(info, a) {
					roots = append(roots, r...)
				}
			}
		}
		if fn != nil {
			if d := w.decls[fn]; d != nil {
				ast.Inspect(d.Body, func(n ast.Node) bool {
					if ret, ok := n.(*ast.ReturnStmt); ok {
						for _, r := range ret.Results {
							if lit, ok := r.(*ast.FuncLit); ok {
								roots = append(roots, root{node: lit.Body})
							}
						}
					}
					return true
				})
			}
		}
		return roots, name
	}
	return nil, ""
}

func isFuncValue(info *types.Info, e ast.Expr) bool {
	_, ok := info.TypeOf(e).Underlying().(*types.Signature)
	return ok
}

// derive marks locals assigned from the message id (directly or through
// other derived locals).
func (w *walker) derive(r root) {
	for range 4 {
		changed := false
		mark := func(id *ast.Ident) {
			if obj := w.pass.TypesInfo.ObjectOf(id); obj != nil && !w.derived[obj] {
				w.derived[obj] = true
				changed = true
			}
		}
		ast.Inspect(r.node, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					var rhs ast.Expr
					if len(n.Rhs) == len(n.Lhs) {
						rhs = n.Rhs[i]
					} else if len(n.Rhs) == 1 {
						rhs = n.Rhs[0]
					}
					if id, ok := l.(*ast.Ident); ok && rhs != nil && w.containsID(rhs) {
						mark(id)
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if i < len(n.Values) && w.containsID(n.Values[i]) {
						mark(id)
					}
				}
			}
			return true
		})
		if !changed {
			return
		}
	}
}

// containsID reports whether e uses the message id: a broker message's id
// or header field, the outbox-id header name, or a derived local.
func (w *walker) containsID(e ast.Node) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if idFields[n.Sel.Name] && isBrokerType(w.pass.TypesInfo.TypeOf(n.X)) {
				found = true
			}
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				if s, err := unquote(n.Value); err == nil && idHeader.MatchString(s) {
					found = true
				}
			}
		case *ast.Ident:
			if obj := w.pass.TypesInfo.ObjectOf(n); obj != nil && w.derived[obj] {
				found = true
			}
		}
		return !found
	})
	return found
}

// walk visits handler code. depth 0 is the handler itself; calls into
// functions of this package are followed one level (site is the call in the
// handler that led there).
func (w *walker) walk(r root, depth int, site *ast.CallExpr) {
	info := w.pass.TypesInfo
	ast.Inspect(r.node, func(n ast.Node) bool {
		if n == nil || n.End() <= r.from {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn == nil {
			return true
		}
		if isInboxPkg(fn.Pkg()) {
			w.inbox = true
			return true
		}
		if e := w.catalog.Match(fn); e != nil {
			name := fn.FullName()
			switch e.Kind {
			case catalog.Write:
				w.addWrite(call, name, e.SQL, false)
			case catalog.Query:
				// inbox SQL goes to addWrite too: it marks the handler guarded
				if sql, ok := w.sqlArg(call, e.SQL); ok && (catalog.ClassifySQL(sql) == catalog.SQLDML || catalog.ClassifySQL(sql) == catalog.SQLInbox) {
					w.addWrite(call, name, e.SQL, false)
				}
			}
			if e.Kind != catalog.TxFunc {
				return true // TxFunc callbacks (gorm Transaction) hold the writes: walk them
			}
		}
		if w.isExternal(call, fn, depth, site) {
			at, extName := call, fn.FullName()
			if depth > 0 && site != nil {
				at = site // the handler's call that leads to the API
				if sfn, ok := typeutil.Callee(info, site).(*types.Func); ok {
					extName = sfn.FullName()
				}
			}
			w.addExternal(at, extName, call, depth)
			return true
		}
		if d := w.decls[fn]; d != nil {
			if depth == 0 && !w.visited[d] && !w.summarizing {
				w.visited[d] = true
				w.walk(root{node: d.Body}, depth+1, call)
			} else if sum := w.summaries[fn.Origin()]; sum != nil {
				w.apply(call, fn, sum, depth, site)
			}
			return true
		}
		var fact funcFact
		if w.pass.ImportObjectFact(fn.Origin(), &fact) {
			w.apply(call, fn, &fact, depth, site)
			return true
		}
		if returnsSQLResult(fn) {
			w.addWrite(call, fn.FullName(), -2, false)
		}
		return true
	})
}

func (w *walker) addWrite(call *ast.CallExpr, name string, sqlIdx int, _ bool) {
	idem := false
	var sql string
	var ok bool
	switch {
	case sqlIdx >= 0:
		sql, ok = w.sqlArg(call, sqlIdx)
	case sqlIdx == -2: // unknown wrapper: the first constant string argument
		for i := range call.Args {
			if sql, ok = w.sqlArg(call, i); ok {
				break
			}
		}
	}
	if ok {
		if inboxSQL.MatchString(sql) {
			w.inbox = true
			return
		}
		idem = idempotentSQL.MatchString(sql)
	}
	if !idem && strings.HasPrefix(name, "(*gorm.io/gorm.DB).") {
		idem = w.gormOnConflict(call)
	}
	w.writes = append(w.writes, write{call: w.call(call, name), idempotent: idem})
}

func (w *walker) addExternal(at *ast.CallExpr, name string, api *ast.CallExpr, depth int) {
	for _, e := range w.externals {
		if e.call.Pos == at.Pos() {
			return // one site reaching several API calls
		}
	}
	keyed := false
	for _, a := range at.Args {
		if w.containsID(a) {
			keyed = true
		}
	}
	if !keyed && depth == 0 && w.idempotencyHeaderSet {
		keyed = true
	}
	w.externals = append(w.externals, external{call: w.call(at, name), keyed: keyed})
}

// isExternal reports whether call is an external API with side effects.
func (w *walker) isExternal(call *ast.CallExpr, fn *types.Func, depth int, site *ast.CallExpr) bool {
	if fn.Pkg() == nil {
		return false
	}
	path := fn.Pkg().Path()
	for _, p := range externalSDKs {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	// Full names are built only where a table could hold them: most calls
	// a handler makes are to packages no table names.
	if len(w.external) == 0 && path != "net/smtp" && path != "net/http" {
		return false
	}
	name := fn.FullName()
	if externalCalls[name] || w.external[name] {
		return true
	}
	if !httpCalls[name] {
		return false
	}
	// net/http reached from payment- or email-like code.
	texts := []string{w.pass.Pkg.Path(), types.ExprString(call.Fun)}
	if site != nil {
		texts = append(texts, types.ExprString(site.Fun))
		if sfn, ok := typeutil.Callee(w.pass.TypesInfo, site).(*types.Func); ok {
			texts = append(texts, sfn.FullName())
		}
	}
	for _, t := range texts {
		if externalLike(t) {
			return true
		}
	}
	if depth > 0 {
		// A followed function: its URLs and names.
		return w.stringsMatch(enclosingDeclOf(w.pass, call.Pos()))
	}
	// In the handler itself: the call's arguments and the values that
	// built them (url := "...", req, _ := http.NewRequest(..., url, ...)).
	if w.stringsMatch(call) {
		return true
	}
	uses := map[types.Object]bool{}
	for _, a := range call.Args {
		ast.Inspect(a, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if obj := w.pass.TypesInfo.Uses[id]; obj != nil {
					uses[obj] = true
				}
			}
			return true
		})
	}
	found := false
	ast.Inspect(enclosingDeclOf(w.pass, call.Pos()), func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found {
			return !found
		}
		for _, l := range as.Lhs {
			if id, ok := l.(*ast.Ident); ok && uses[w.pass.TypesInfo.ObjectOf(id)] {
				for _, r := range as.Rhs {
					found = found || w.stringsMatch(r)
				}
			}
		}
		return !found
	})
	return found
}

func (w *walker) stringsMatch(n ast.Node) bool {
	if n == nil {
		return false
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := unquote(lit.Value); err == nil && externalLike(s) {
				found = true
			}
		}
		return !found
	})
	return found
}

func (w *walker) sqlArg(call *ast.CallExpr, idx int) (string, bool) {
	if idx < 0 || idx >= len(call.Args) {
		return "", false
	}
	tv, ok := w.pass.TypesInfo.Types[call.Args[idx]]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// gormOnConflict reports whether a gorm write's receiver chain carries
// Clauses(clause.OnConflict{...}).
func (w *walker) gormOnConflict(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	for ok {
		inner, isCall := ast.Unparen(sel.X).(*ast.CallExpr)
		if !isCall {
			return false
		}
		if s, isSel := ast.Unparen(inner.Fun).(*ast.SelectorExpr); isSel && s.Sel.Name == "Clauses" {
			for _, a := range inner.Args {
				if t := w.pass.TypesInfo.TypeOf(a); t != nil && strings.HasSuffix(types.TypeString(t, nil), "gorm.io/gorm/clause.OnConflict") {
					return true
				}
			}
		}
		sel, ok = ast.Unparen(inner.Fun).(*ast.SelectorExpr)
	}
	return false
}

// findIdempotencyHeader looks for h.Set("Idempotency-Key", <message id>).
func (w *walker) findIdempotencyHeader(r root) {
	ast.Inspect(r.node, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "Set" && sel.Sel.Name != "Add") {
			return true
		}
		if key, ok := w.sqlArg(call, 0); ok && idempotencyHeader.MatchString(key) && w.containsID(call.Args[1]) {
			w.idempotencyHeaderSet = true
		}
		return true
	})
}

// skipFile: test files unless asked for, and paths .outboxify.yaml excludes.
func (c *checker) skipFile(pos token.Pos) bool {
	name := c.pass.Fset.File(pos).Name()
	if !c.tests && strings.HasSuffix(name, "_test.go") {
		return true
	}
	return c.config != nil && c.config.Excluded(name)
}
