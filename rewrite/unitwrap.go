package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/dave/dst"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// wrapperPlan is a publisher wrapper whose broker call the unit guards.
type wrapperPlan struct {
	wrap       funcDecl
	wctx       string // the wrapper's context parameter
	brokerCall *ast.CallExpr
	pub        publisher
	guarded    ast.Expr        // the call, or the end of its result chain
	dropped    *ast.AssignStmt // `_, err := call`: guarded as a statement
	impl       *funcDecl       // a sibling implementation that reaches wrap through further calls
	// tail > 0: the broker call's result is a handle the wrapper waits on
	// (paho's Token); the statements from wrap's body.List[tail-1] to its
	// end are the direct path, guarded as a whole.
	tail int
}

// checkWrapper checks that a wrapper's one call to the broker API pubName
// can be guarded by outbox.Enqueue, or says why not.
func (s *unitSession) checkWrapper(wrap funcDecl, pubName string) (*wrapperPlan, string) {
	wctx := ctxParam(wrap.pkg.TypesInfo, wrap.decl.Type)
	if wctx == "" {
		return nil, "the publisher wrapper " + shortName(wrap.fn.FullName()) + " has no context.Context parameter: the unit cannot reach its broker call"
	}
	var brokerCall *ast.CallExpr
	n := 0
	ast.Inspect(wrap.decl.Body, func(x ast.Node) bool {
		if c, ok := x.(*ast.CallExpr); ok {
			if fn, ok := typeutil.Callee(wrap.pkg.TypesInfo, c).(*types.Func); ok && fn.FullName() == pubName {
				brokerCall = c
				n++
			}
		}
		return true
	})
	if n == 0 {
		if why := s.depCall(wrap); why != "" {
			return nil, why
		}
	}
	if n != 1 {
		return nil, fmt.Sprintf("the publisher wrapper %s makes %d broker calls: guard them by hand with outbox.Enqueue", shortName(wrap.fn.FullName()), n)
	}
	pub, ok := publishers[pubName]
	if !ok || pub.messages == nil {
		return nil, "the broker call " + shortName(pubName) + " cannot be mapped to an outbox row here"
	}
	// The expression that yields the publish's error: the call, or the end
	// of its result chain (XAdd(...).Err(), ProduceSync(...).FirstErr()).
	guarded := ast.Expr(brokerCall)
	if len(pub.chain) > 0 {
		guarded = chainEnd(wrap.decl.Body, brokerCall, pub.chain)
		if guarded == nil {
			return nil, "the broker call's result is not checked through " + strings.Join(pub.chain, "/") + "(): guard it by hand with outbox.Enqueue"
		}
	}
	// A (T, error) broker call whose T is dropped (`_, err := js.Publish(...)`)
	// is guarded as a statement: `err := outbox.Enqueue(..., func(ctx) error
	// { _, err := js.Publish(...); return err })`.
	var dropped *ast.AssignStmt
	tail := 0
	if t := wrap.pkg.TypesInfo.TypeOf(guarded); t == nil || !types.Identical(t, types.Universe.Lookup("error").Type()) {
		dropped = droppedResult(wrap.pkg.TypesInfo, wrap.decl.Body, guarded)
		if dropped == nil && isHandleResult(t) {
			var why string
			if tail, why = tokenTail(wrap, brokerCall); why != "" {
				return nil, why
			}
		} else if dropped == nil {
			return nil, "the broker call's result is more than an error (offsets, acks) and the publisher wrapper " + shortName(wrap.fn.FullName()) + " uses it (" + wrap.at(brokerCall) + ")"
		}
	}
	return &wrapperPlan{wrap: wrap, wctx: wctx, brokerCall: brokerCall, pub: pub, guarded: guarded, dropped: dropped, tail: tail}, ""
}

// sibling is another implementation of an interface method on the
// publish path.
type sibling struct {
	im *types.Func // the interface method
	d  funcDecl
}

// siblingWrappers are the other implementations of each interface method
// on the publish path (via's elements without a body here): a call through
// the interface may run any of them, so each runs in the unit where the
// chosen one does.
func (s *unitSession) siblingWrappers(via []string) []sibling {
	onPath := map[string]bool{}
	for _, v := range via {
		onPath[v] = true
	}
	var out []sibling
	seen := map[*ast.FuncDecl]bool{}
	for _, v := range via {
		if _, ok := s.decls[v]; ok {
			continue // a static call
		}
		im := s.funcNamed(v)
		if im == nil {
			continue
		}
		for _, d := range s.callees(im) {
			if !onPath[d.fn.FullName()] && !seen[d.decl] {
				seen[d.decl] = true
				out = append(out, sibling{im: im, d: d})
			}
		}
	}
	return out
}

// funcNamed is a called function by its full name (an interface method
// has no declaration with a body), nil when no loaded code calls it.
func (s *unitSession) funcNamed(name string) *types.Func {
	s.index()
	for fn := range s.callsOf {
		if fn.FullName() == name {
			return fn
		}
	}
	return nil
}

// guardTarget is a broker call a sibling implementation makes or reaches:
// the function that makes it, the broker API, and the calls from the
// implementation down to that function (its own name first; an interface
// method in between passes its arguments on).
type guardTarget struct {
	d     funcDecl
	name  string
	chain []string
}

// maxGuardTargets bounds the broker calls one implementation may reach
// before fix leaves the finding to a person: past it the guards would
// spread over code the finding has little to do with.
const maxGuardTargets = 16

// publishTargets are the broker calls a sibling implementation makes in
// its own body or reaches through further calls (helpers, another
// publisher interface and each of its implementations), not through the
// interface method im again (a decorator around the others). Each target
// is guarded like the finding's own wrapper: inside a unit of work the
// sibling enqueues instead of publishing, outside one the guard publishes
// directly. Why not, when a function makes calls to two broker APIs or the
// implementation reaches too many.
func (s *unitSession) publishTargets(d funcDecl, im *types.Func) ([]guardTarget, string) {
	var out []guardTarget
	depWhy := "" // a call into a dependency that publishes out of sight
	apis := map[*ast.FuncDecl][]string{}
	seen := map[*ast.FuncDecl]bool{}
	tooFar := false
	var walk func(d funcDecl, chain []string)
	walk = func(d funcDecl, chain []string) {
		if seen[d.decl] {
			return
		}
		if len(seen) > 64 {
			tooFar = true
			return
		}
		seen[d.decl] = true
		ast.Inspect(d.decl.Body, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(d.pkg.TypesInfo, c).(*types.Func)
			if !ok || fn == im || fn.Pkg() != nil && fn.Pkg().Path() == s.opts.OutboxPkg {
				return true
			}
			if e := catalog.Default().Match(fn); e != nil {
				if e.Kind == catalog.Publish && !slices.Contains(apis[d.decl], fn.FullName()) {
					apis[d.decl] = append(apis[d.decl], fn.FullName())
					out = append(out, guardTarget{d: d, name: fn.FullName(), chain: chain})
				}
				return true
			}
			next := s.callees(fn)
			if len(next) == 0 && depWhy == "" {
				depWhy = s.depWhy(d, c, fn)
			}
			for _, next := range next {
				if !s.reachesPublish(next) {
					continue // an event's Encode, a logger: nothing to guard there
				}
				nextChain := append(slices.Clip(chain), fn.FullName())
				if next.fn.FullName() != fn.FullName() {
					nextChain = append(nextChain, next.fn.FullName())
				}
				walk(next, nextChain)
			}
			return true
		})
	}
	walk(d, []string{d.fn.FullName()})
	if depWhy != "" {
		return nil, depWhy
	}
	if tooFar {
		// a broker call past the bound would stay unguarded in the unit
		return nil, fmt.Sprintf("the publisher implementation %s reaches more than 64 functions that may publish: guard its broker calls by hand with outbox.Enqueue", shortName(d.fn.FullName()))
	}
	for _, t := range out {
		if names := apis[t.d.decl]; len(names) > 1 {
			return nil, fmt.Sprintf("the publisher implementation %s reaches %s, which calls %d broker APIs: guard them by hand with outbox.Enqueue", shortName(d.fn.FullName()), shortName(t.d.fn.FullName()), len(names))
		}
	}
	if len(out) > maxGuardTargets {
		return nil, fmt.Sprintf("the publisher implementation %s reaches %d broker calls: guard the ones a unit of work runs by hand with outbox.Enqueue", shortName(d.fn.FullName()), len(out))
	}
	return out, ""
}

// reachesPublish reports whether d makes a catalog publish call or calls,
// statically or through an interface, code of the module that does, or a
// dependency that imports a broker client. publishTargets descends only
// into such callees: an event interface's Encode has hundreds of
// implementations that publish nothing, and walking them would exhaust its
// bound before the broker call behind the next interface.
func (s *unitSession) reachesPublish(d funcDecl) bool {
	if s.pubReach == nil {
		s.pubReach, s.pubBusy = map[*ast.FuncDecl]bool{}, map[*ast.FuncDecl]bool{}
	}
	if r, ok := s.pubReach[d.decl]; ok {
		return r
	}
	if s.pubBusy[d.decl] {
		s.pubCycle = true // answered below, once the cycle's first function is done
		return false
	}
	s.pubBusy[d.decl] = true
	defer delete(s.pubBusy, d.decl)
	outer := s.pubCycle
	s.pubCycle = false
	found := false
	ast.Inspect(d.decl.Body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fn, ok := typeutil.Callee(d.pkg.TypesInfo, c).(*types.Func)
		if !ok || fn.Pkg() != nil && fn.Pkg().Path() == s.opts.OutboxPkg {
			return true
		}
		if e := catalog.Default().Match(fn); e != nil {
			found = e.Kind == catalog.Publish
			return !found
		}
		next := s.callees(fn)
		if len(next) == 0 {
			found = s.depPublisher(fn) != ""
			return !found
		}
		for _, nd := range next {
			if s.reachesPublish(nd) {
				found = true
				break
			}
		}
		return !found
	})
	// a "no" that leaned on a function still being answered may be wrong
	// (that function may publish through a later call): not cached
	if found || !s.pubCycle {
		s.pubReach[d.decl] = found
	}
	s.pubCycle = outer || s.pubCycle && !found
	return found
}

// guard wraps a wrapper's broker call in outbox.Enqueue (once per wrapper).
func (s *unitSession) guard(w *wrapperPlan) error {
	wrap := w.wrap
	if s.done[wrap.decl] {
		return nil
	}
	uf, err := s.fileOf(wrap)
	if err != nil {
		return err
	}
	x := &extractor{info: wrap.pkg.TypesInfo, dec: uf.dec, body: wrap.decl.Body}
	msgs, why := w.pub.messages(x, w.brokerCall)
	if why != "" || len(msgs) != 1 {
		if why == "" {
			why = "the broker call sends several messages"
		}
		return errManual("in the publisher wrapper " + shortName(wrap.fn.FullName()) + " (" + wrap.at(w.brokerCall) + "): " + why)
	}
	// no key, or one that is the destination itself (AMQP's routing key)
	if m := msgs[0]; m.noKey || dstSrc(m.aggID) != "" && dstSrc(m.aggID) == dstSrc(m.aggType) {
		s.noKey[wrap.decl] = noKeyNote(dstSrc(msgs[0].aggType))
	}
	if w.tail > 0 {
		return s.guardTail(w, uf, x, msgs[0])
	}
	dc, ok := uf.dec.Dst.Nodes[w.guarded].(*dst.CallExpr)
	if !ok {
		return errManual("the broker call is not in the decorated file")
	}
	inner := dst.Clone(dc).(*dst.CallExpr)
	body := []dst.Stmt{&dst.ReturnStmt{Results: []dst.Expr{inner}}}
	if w.dropped != nil {
		errName := w.dropped.Lhs[len(w.dropped.Lhs)-1].(*ast.Ident).Name
		var lhs []dst.Expr
		for range w.dropped.Lhs[1:] {
			lhs = append(lhs, dst.NewIdent("_"))
		}
		body = []dst.Stmt{
			&dst.AssignStmt{Lhs: append(lhs, dst.NewIdent(errName)), Tok: token.DEFINE, Rhs: []dst.Expr{inner}},
			&dst.ReturnStmt{Results: []dst.Expr{dst.NewIdent(errName)}},
		}
	}
	for _, st := range body {
		st.Decorations().Before = dst.NewLine // the direct call on a line of its own
		st.Decorations().After = dst.NewLine
	}
	guard := &dst.CallExpr{
		Fun: &dst.Ident{Name: "Enqueue", Path: s.opts.OutboxPkg},
		Args: []dst.Expr{
			dst.NewIdent(w.wctx),
			messageLit(s.opts.OutboxPkg, x.finish(msgs[0])),
			&dst.FuncLit{
				Type: ctxFuncType(w.wctx),
				Body: &dst.BlockStmt{List: body},
			},
		},
	}
	if w.dropped != nil {
		da, ok := uf.dec.Dst.Nodes[w.dropped].(*dst.AssignStmt)
		if !ok {
			return errManual("the broker call's statement is not in the decorated file")
		}
		da.Lhs = da.Lhs[len(da.Lhs)-1:]
		da.Rhs = []dst.Expr{guard}
	} else {
		replaceCall(dc, guard)
	}
	s.done[wrap.decl] = true
	return nil
}

// isHandleResult reports whether t is a single non-error value the caller
// waits on for the publish's outcome (paho's Token: Wait, Error).
func isHandleResult(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := t.(*types.Tuple); ok {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Error")
	_, ok := obj.(*types.Func)
	return ok
}

// tokenTail finds the statements of a wrapper that publish and then wait on
// the broker call's result handle (token := c.Publish(...); token.Wait();
// return token.Error()): the top-level statement holding the call and every
// one after it. They are the direct path as a whole when the wrapper returns
// only an error and they do nothing but wait on the handle, build errors
// and return: inside a unit none of it runs, so nothing else may be there.
// It returns the statement's index + 1, or why not.
func tokenTail(wrap funcDecl, call *ast.CallExpr) (int, string) {
	info := wrap.pkg.TypesInfo
	name := shortName(wrap.fn.FullName())
	res := wrap.decl.Type.Results
	if res == nil || len(res.List) != 1 || len(res.List[0].Names) > 0 || !types.Identical(info.TypeOf(res.List[0].Type), types.Universe.Lookup("error").Type()) {
		return 0, "the broker call returns a handle to wait on and the publisher wrapper " + name + " returns more than an error: guard it by hand with outbox.Enqueue"
	}
	body := wrap.decl.Body.List
	start := -1
	for i, st := range body {
		if st.Pos() <= call.Pos() && call.End() <= st.End() {
			start = i
		}
	}
	if start < 0 {
		return 0, "the broker call is not in a statement of " + name
	}
	handle := info.TypeOf(call)
	tailPos, tailEnd := body[start].Pos(), body[len(body)-1].End()
	inTail := func(p token.Pos) bool { return tailPos <= p && p < tailEnd }
	why := ""
	for _, st := range body[start:] {
		ast.Inspect(st, func(n ast.Node) bool {
			if why != "" {
				return false
			}
			switch n := n.(type) {
			case *ast.DeferStmt, *ast.GoStmt, *ast.LabeledStmt, *ast.BranchStmt, *ast.SelectStmt, *ast.SendStmt:
				why = "after the broker call, " + name + " does more than wait for its result (" + wrap.at(n) + ")"
			case *ast.AssignStmt:
				for _, l := range n.Lhs {
					id, ok := ast.Unparen(l).(*ast.Ident)
					if !ok || id.Name == "_" {
						if !ok {
							why = "after the broker call, " + name + " assigns outside the call's own variables (" + wrap.at(n) + ")"
						}
						continue
					}
					obj := info.ObjectOf(id)
					if obj == nil || !inTail(obj.Pos()) {
						why = "after the broker call, " + name + " assigns " + id.Name + ", declared before it (" + wrap.at(n) + ")"
					}
				}
			case *ast.IncDecStmt:
				why = "after the broker call, " + name + " changes state (" + wrap.at(n) + ")"
			case *ast.CallExpr:
				if n == call {
					return false // its receiver and arguments build the message
				}
				if info.Types[n.Fun].IsType() || info.Types[n.Fun].IsBuiltin() {
					return true
				}
				if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
					if t := info.TypeOf(sel.X); t != nil && types.Identical(t, handle) {
						return true // token.Wait(), token.Error(), token.WaitTimeout(d)
					}
				}
				if fn, ok := typeutil.Callee(info, n).(*types.Func); ok && fn.Pkg() != nil {
					switch fn.Pkg().Path() {
					case "fmt", "errors", "github.com/pkg/errors":
						if !strings.HasPrefix(fn.Name(), "Print") && !strings.HasPrefix(fn.Name(), "Fprint") {
							return true
						}
					}
				}
				why = "after the broker call, " + name + " does more than wait for its result (" + wrap.at(n) + ")"
			}
			return true
		})
		if why != "" {
			return 0, why + ": guard it by hand with outbox.Enqueue"
		}
	}
	return start + 1, ""
}

// guardTail moves the wrapper's statements from the broker call to its end
// into the direct path of outbox.Enqueue, which the wrapper returns.
func (s *unitSession) guardTail(w *wrapperPlan, uf *unitFile, x *extractor, m message) error {
	db, ok := uf.dec.Dst.Nodes[w.wrap.decl.Body].(*dst.BlockStmt)
	if !ok || len(db.List) != len(w.wrap.decl.Body.List) {
		return errManual("the publisher wrapper's body is not in the decorated file")
	}
	tail := db.List[w.tail-1:]
	moved := make([]dst.Stmt, len(tail))
	copy(moved, tail)
	moved[0].Decorations().Before = dst.NewLine
	ret := &dst.ReturnStmt{Results: []dst.Expr{&dst.CallExpr{
		Fun: &dst.Ident{Name: "Enqueue", Path: s.opts.OutboxPkg},
		Args: []dst.Expr{
			dst.NewIdent(w.wctx),
			messageLit(s.opts.OutboxPkg, x.finish(m)),
			&dst.FuncLit{Type: ctxFuncType(w.wctx), Body: &dst.BlockStmt{List: moved}},
		},
	}}}
	ret.Decs.Before = tail[0].Decorations().Before
	ret.Decs.Start = tail[0].Decorations().Start
	moved[0].Decorations().Start = nil
	db.List = append(db.List[:w.tail-1], ret)
	s.done[w.wrap.decl] = true
	return nil
}

// depCall says why d cannot be guarded when it calls into a dependency
// that publishes out of fix's sight ("" when it does not).
func (s *unitSession) depCall(d funcDecl) string {
	why := ""
	ast.Inspect(d.decl.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && why == "" {
			if fn, ok := typeutil.Callee(d.pkg.TypesInfo, c).(*types.Func); ok && len(s.callees(fn)) == 0 {
				why = s.depWhy(d, c, fn)
			}
		}
		return why == ""
	})
	return why
}

func (s *unitSession) depWhy(d funcDecl, c *ast.CallExpr, fn *types.Func) string {
	client := s.depPublisher(fn)
	if client == "" {
		return ""
	}
	return fmt.Sprintf("the publisher %s calls %s (%s), in a dependency that uses the broker client %s: fix cannot see or guard that broker call; guard it by hand with outbox.Enqueue", shortName(d.fn.FullName()), shortName(fn.FullName()), d.at(c), client)
}

// depPublisher names the broker client package that fn's package, a
// dependency fix has no syntax for, imports directly or indirectly ("" if
// none): a call into it may publish where no guard can reach (supermq's
// event store publishes through a FluxMQ client module over AMQP).
func (s *unitSession) depPublisher(fn *types.Func) string {
	if fn.Pkg() == nil || catalog.Default().Declares(fn.Pkg().Path()) {
		return "" // a client's own calls are rows or not publishes
	}
	if s.depPubs == nil {
		s.depPubs = map[string]string{}
		s.pkgByPath = map[string]*packages.Package{}
		packages.Visit(s.pkgs, nil, func(p *packages.Package) { s.pkgByPath[p.PkgPath] = p })
		for _, e := range catalog.Default().Entries() {
			if e.Kind == catalog.Publish {
				s.depPubs[rowPackage(e.Name)] = rowPackage(e.Name)
			}
		}
	}
	p := s.pkgByPath[fn.Pkg().Path()]
	if p == nil || p.Module == nil || p.Module.Main {
		return "" // not loaded, the standard library, or the module's own code
	}
	var visit func(p *packages.Package) string
	visit = func(p *packages.Package) string {
		if v, ok := s.depPubs[p.PkgPath]; ok {
			return v
		}
		s.depPubs[p.PkgPath] = "" // cycles and repeats
		for _, imp := range p.Imports {
			if v := visit(imp); v != "" {
				s.depPubs[p.PkgPath] = v
				return v
			}
		}
		return ""
	}
	return visit(p)
}

// rowPackage is the package path of a catalog row's full name
// ("(*github.com/rabbitmq/amqp091-go.Channel).Publish", "pkg.Func").
func rowPackage(name string) string {
	if strings.HasPrefix(name, "(") {
		name = strings.TrimPrefix(strings.TrimPrefix(name, "("), "*")
		name = name[:strings.Index(name, ")")]
	}
	slash := strings.LastIndex(name, "/")
	return name[:slash+1+strings.Index(name[slash+1:], ".")]
}
