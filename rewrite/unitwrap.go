package rewrite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/dave/dst"
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
	if t := wrap.pkg.TypesInfo.TypeOf(guarded); t == nil || !types.Identical(t, types.Universe.Lookup("error").Type()) {
		dropped = droppedResult(wrap.pkg.TypesInfo, wrap.decl.Body, guarded)
		if dropped == nil {
			return nil, "the broker call's result is more than an error (offsets, acks) and the publisher wrapper " + shortName(wrap.fn.FullName()) + " uses it (" + wrap.at(brokerCall) + ")"
		}
	}
	return &wrapperPlan{wrap: wrap, wctx: wctx, brokerCall: brokerCall, pub: pub, guarded: guarded, dropped: dropped}, ""
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
	apis := map[*ast.FuncDecl][]string{}
	seen := map[*ast.FuncDecl]bool{}
	var walk func(d funcDecl, chain []string)
	walk = func(d funcDecl, chain []string) {
		if seen[d.decl] || len(seen) > 64 {
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
			for _, next := range s.callees(fn) {
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
