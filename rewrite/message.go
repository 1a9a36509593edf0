package rewrite

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"golang.org/x/tools/go/types/typeutil"
)

// message is one outbox row, as expressions valid at the publish site.
type message struct {
	aggType, aggID, eventType, payload dst.Expr
	headers                            []header
	// headersExpr: the publish's own map[string]string of headers, used
	// whole (built at run time, e.g. FluxMQ's PublishOptions.Properties)
	headersExpr dst.Expr
	// fields, maxLen, approx: a Redis stream entry kept as the service
	// built it (outbox.Message.StreamFields, StreamMaxLen, StreamApprox).
	fields, maxLen, approx dst.Expr
	// noKey: the publish had no key; the aggregate is the destination
	noKey bool
}

type header struct {
	key   string
	value dst.Expr
}

// extractor turns a publish call's arguments into outbox rows. It records
// the source expressions it reuses (deps: moving the insert must move their
// definitions too) and statements that only built the broker message.
type extractor struct {
	info      *types.Info
	dec       *decorator.Decorator
	body      *ast.BlockStmt // the function holding the publish
	deps      []ast.Expr
	removable []ast.Stmt
	// marshalled is the Go value the payload was marshalled from, if seen.
	marshalled types.Type
}

func (x *extractor) clone(e ast.Expr) dst.Expr {
	x.deps = append(x.deps, e)
	n, ok := x.dec.Dst.Nodes[e]
	if !ok {
		panic("rewrite: expression not decorated")
	}
	c := dst.Clone(n).(dst.Expr)
	c.Decorations().Before = dst.None
	c.Decorations().After = dst.None
	c.Decorations().Start.Clear()
	c.Decorations().End.Clear()
	return c
}

func strLit(s string) dst.Expr {
	return &dst.BasicLit{Kind: token.STRING, Value: strconv.Quote(s)}
}

func conv(typ string, e dst.Expr) dst.Expr {
	var fun dst.Expr = dst.NewIdent(typ)
	if typ == "[]byte" {
		fun = &dst.ArrayType{Elt: dst.NewIdent("byte")}
	}
	return &dst.CallExpr{Fun: fun, Args: []dst.Expr{e}}
}

// constString returns e's value if it is a string constant (also inside a
// []byte conversion).
func (x *extractor) constString(e ast.Expr) (string, bool) {
	e = ast.Unparen(e)
	if tv, ok := x.info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value), true
	}
	if inner, ok := x.conversionArg(e); ok {
		return x.constString(inner)
	}
	return "", false
}

// conversionArg returns the operand of a type conversion or of a call to
// a wrapper that only changes the static type (aws.String, sarama encoders).
func (x *extractor) conversionArg(e ast.Expr) (ast.Expr, bool) {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return u.X, true
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, false
	}
	if tv, ok := x.info.Types[call.Fun]; ok && tv.IsType() {
		return call.Args[0], true
	}
	if f, ok := typeutil.Callee(x.info, call).(*types.Func); ok && f.Pkg() != nil {
		switch f.FullName() {
		case "github.com/aws/aws-sdk-go-v2/aws.String", "github.com/aws/aws-sdk-go/aws.String":
			return call.Args[0], true
		}
	}
	return nil, false
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func isBytes(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// str returns e as a string expression.
func (x *extractor) str(e ast.Expr) (dst.Expr, bool) {
	e = ast.Unparen(e)
	if s, ok := x.constString(e); ok {
		return strLit(s), true
	}
	t := x.info.TypeOf(e)
	if t == nil {
		return nil, false
	}
	if inner, ok := x.conversionArg(e); ok {
		if it := x.info.TypeOf(inner); it != nil && (isString(it) || isBytes(it)) {
			return x.str(inner)
		}
	}
	switch {
	case isString(t):
		if types.Identical(t, types.Typ[types.String]) {
			return x.clone(e), true
		}
		return conv("string", x.clone(e)), true
	case isBytes(t):
		return conv("string", x.clone(e)), true
	}
	if p, ok := t.Underlying().(*types.Pointer); ok && isString(p.Elem()) {
		return &dst.StarExpr{X: x.clone(e)}, true
	}
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&(types.IsInteger|types.IsFloat|types.IsBoolean) != 0 {
		return &dst.CallExpr{Fun: &dst.Ident{Name: "Sprint", Path: "fmt"}, Args: []dst.Expr{x.clone(e)}}, true
	}
	return nil, false
}

// bytes returns e as a []byte expression.
func (x *extractor) bytes(e ast.Expr) (dst.Expr, bool) {
	e = ast.Unparen(e)
	t := x.info.TypeOf(e)
	if t == nil {
		return nil, false
	}
	if inner, ok := x.conversionArg(e); ok {
		if it := x.info.TypeOf(inner); it != nil && (isBytes(it) || isString(it)) {
			if isBytes(it) || !isBytes(t) {
				return x.bytes(inner)
			}
		}
	}
	switch {
	case isBytes(t):
		x.noteMarshal(e)
		if types.Identical(t, types.NewSlice(types.Typ[types.Byte])) {
			return x.clone(e), true
		}
		return conv("[]byte", x.clone(e)), true
	case isString(t):
		return conv("[]byte", x.clone(e)), true
	}
	if p, ok := t.Underlying().(*types.Pointer); ok && isString(p.Elem()) {
		return conv("[]byte", &dst.StarExpr{X: x.clone(e)}), true
	}
	return nil, false
}

// noteMarshal remembers the Go type marshalled into e (payload, err :=
// json.Marshal(order)), which names the event when no type header does.
func (x *extractor) noteMarshal(e ast.Expr) {
	var call *ast.CallExpr
	switch e := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		call = e
	case *ast.Ident:
		obj := x.info.Uses[e]
		if obj == nil {
			return
		}
		ast.Inspect(x.body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Rhs) != 1 || call != nil {
				return call == nil
			}
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && (x.info.Defs[id] == obj || x.info.Uses[id] == obj) {
					if c, ok := as.Rhs[0].(*ast.CallExpr); ok {
						call = c
					}
				}
			}
			return true
		})
	}
	if call == nil || len(call.Args) == 0 {
		return
	}
	f, ok := typeutil.Callee(x.info, call).(*types.Func)
	if !ok || !marshalFuncs[f.FullName()] {
		return
	}
	x.marshalled = x.info.TypeOf(call.Args[0])
}

// typeName is the Go type name of the marshalled value ("" if unnamed).
func typeName(t types.Type) string {
	if t == nil {
		return ""
	}
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	if n, ok := t.(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// lit returns the composite literal e stands for: the literal itself, &T{},
// or a local variable assigned exactly once from one and not changed later.
// The statement declaring such a variable is recorded as removable when the
// publish is its only use.
func (x *extractor) lit(e ast.Expr) (*ast.CompositeLit, bool) {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return x.lit(u.X)
	}
	switch e := e.(type) {
	case *ast.CompositeLit:
		return e, true
	case *ast.Ident:
		obj, ok := x.info.Uses[e].(*types.Var)
		if !ok {
			return nil, false
		}
		var def ast.Stmt
		var val ast.Expr
		uses, changed := 0, false
		ast.Inspect(x.body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && x.info.Defs[id] == obj && len(n.Lhs) == len(n.Rhs) {
						def, val = n, n.Rhs[i]
					}
					if sel, ok := l.(*ast.SelectorExpr); ok {
						if id, ok := sel.X.(*ast.Ident); ok && x.info.Uses[id] == obj {
							changed = true
						}
					}
					if id, ok := l.(*ast.Ident); ok && x.info.Uses[id] == obj {
						changed = true
					}
				}
			case *ast.DeclStmt:
				if gd, ok := n.Decl.(*ast.GenDecl); ok {
					for _, sp := range gd.Specs {
						vs, ok := sp.(*ast.ValueSpec)
						if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
							continue
						}
						if x.info.Defs[vs.Names[0]] == obj {
							def, val = n, vs.Values[0]
						}
					}
				}
			case *ast.Ident:
				if x.info.Uses[n] == obj {
					uses++
				}
			}
			return true
		})
		if def == nil || changed {
			return nil, false
		}
		// A map or slice can change through any other use (m[k] = v,
		// append, a call that fills it): only a variable used once is the
		// literal it was made from.
		switch x.info.TypeOf(val).Underlying().(type) {
		case *types.Map, *types.Slice:
			if uses > 1 {
				return nil, false
			}
		}
		l, ok := x.lit(val)
		if !ok {
			return nil, false
		}
		if uses == 1 {
			x.removable = append(x.removable, def)
		} else {
			x.deps = append(x.deps, e) // the variable stays: keep its definition before the insert
		}
		return l, true
	}
	return nil, false
}

// field returns the value of field name in a keyed struct literal.
func field(l *ast.CompositeLit, name string) ast.Expr {
	for _, el := range l.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value
			}
		}
	}
	return nil
}

// otherField names a field a message literal sets beyond those the
// outbox row carries (kafka-go's Time, sarama's Partition or Timestamp):
// the relay would publish without it. "" when there is none.
func otherField(l *ast.CompositeLit, carried ...string) string {
	for _, el := range l.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		id, ok := kv.Key.(*ast.Ident)
		if !ok {
			continue
		}
		known := false
		for _, c := range carried {
			known = known || c == id.Name
		}
		if !known {
			return id.Name
		}
	}
	return ""
}

// rowCannotCarry is the reason for a message field the outbox row has no
// place for.
func rowCannotCarry(what, f string) string {
	return "the " + what + " sets " + f + ", which the outbox row cannot carry (the relay would publish without it); write the outbox row by hand"
}

// keyed reports whether every element of a struct literal is keyed (an
// unkeyed one cannot be mapped by field name).
func keyed(l *ast.CompositeLit) bool {
	for _, el := range l.Elts {
		if _, ok := el.(*ast.KeyValueExpr); !ok {
			return false
		}
	}
	return true
}

// headerList maps a slice literal of {Key, Value} structs to headers.
func (x *extractor) headerList(e ast.Expr) ([]header, string) {
	if e == nil {
		return nil, ""
	}
	l, ok := x.lit(e)
	if !ok {
		return nil, "headers are built at run time; map them into outbox.Message.Headers by hand"
	}
	var hs []header
	for _, el := range l.Elts {
		hl, ok := x.lit(el)
		if !ok || !keyed(hl) {
			return nil, "a header is not a keyed literal"
		}
		k, ok := x.constString(field(hl, "Key"))
		if !ok {
			return nil, "a header key is not a constant"
		}
		v, ok := x.str(field(hl, "Value"))
		if !ok {
			return nil, "a header value is not a string or bytes"
		}
		hs = append(hs, header{k, v})
	}
	return hs, ""
}

// headerMap maps a map literal (string keys) to headers; value picks the
// string out of each value expression.
func (x *extractor) headerMap(e ast.Expr, value func(ast.Expr) (dst.Expr, bool)) ([]header, string) {
	if e == nil {
		return nil, ""
	}
	l, ok := x.lit(e)
	if !ok {
		return nil, "headers are built at run time; map them into outbox.Message.Headers by hand"
	}
	var hs []header
	for _, el := range l.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, "a header is not a key: value pair"
		}
		k, ok := x.constString(kv.Key)
		if !ok {
			return nil, "a header key is not a constant"
		}
		v, ok := value(kv.Value)
		if !ok {
			return nil, "header " + strconv.Quote(k) + " has a value that is not a string"
		}
		hs = append(hs, header{k, v})
	}
	return hs, ""
}

// finish fills EventType and AggregateID defaults and splits the type
// header out of the headers.
func (x *extractor) finish(m message) message {
	var rest []header
	for _, h := range m.headers {
		if typeHeaders[strings.ToLower(h.key)] && m.eventType == nil {
			m.eventType = h.value
			continue
		}
		rest = append(rest, h)
	}
	m.headers = rest
	if m.eventType == nil {
		if n := typeName(x.marshalled); n != "" {
			m.eventType = strLit(n)
		} else {
			m.eventType = dst.Clone(m.aggType).(dst.Expr)
		}
	}
	if m.aggID == nil {
		// No message key: one aggregate per destination keeps the order
		// the broker would have kept.
		m.aggID = dst.Clone(m.aggType).(dst.Expr)
		m.noKey = true
	}
	return m
}

func unsupported(what string) string {
	return what + " cannot be mapped to an outbox row without guessing"
}

func kafkaGo(x *extractor, call *ast.CallExpr) ([]message, string) {
	if call.Ellipsis.IsValid() {
		return nil, "messages passed as a slice (msgs...); write one outbox.Insert per message by hand"
	}
	var out []message
	for _, a := range call.Args[1:] {
		l, ok := x.lit(a)
		if !ok || !keyed(l) {
			return nil, unsupported("a kafka.Message that is not a keyed literal")
		}
		if f := otherField(l, "Topic", "Key", "Value", "Headers"); f != "" {
			return nil, rowCannotCarry("kafka.Message", f)
		}
		var m message
		topic := field(l, "Topic")
		if topic == nil {
			return nil, "the topic is set on the kafka.Writer, not on the message; add Topic to the message or write the outbox row by hand"
		}
		if m.aggType, ok = x.str(topic); !ok {
			return nil, unsupported("the topic")
		}
		if k := field(l, "Key"); k != nil {
			if m.aggID, ok = x.str(k); !ok {
				return nil, unsupported("the message key")
			}
		}
		v := field(l, "Value")
		if v == nil {
			return nil, "the message has no value"
		}
		if m.payload, ok = x.bytes(v); !ok {
			return nil, unsupported("the message value")
		}
		var why string
		if m.headers, why = x.headerList(field(l, "Headers")); why != "" {
			return nil, why
		}
		out = append(out, x.finish(m))
	}
	return out, ""
}

func sarama(x *extractor, call *ast.CallExpr) ([]message, string) {
	l, ok := x.lit(call.Args[0])
	if !ok || !keyed(l) {
		return nil, unsupported("a ProducerMessage that is not a keyed literal")
	}
	if f := otherField(l, "Topic", "Key", "Value", "Headers"); f != "" {
		return nil, rowCannotCarry("ProducerMessage", f)
	}
	var m message
	if m.aggType, ok = x.str(field(l, "Topic")); !ok {
		return nil, unsupported("the topic")
	}
	if k := field(l, "Key"); k != nil {
		if m.aggID, ok = x.str(k); !ok {
			return nil, unsupported("the message key")
		}
	}
	v := field(l, "Value")
	if v == nil {
		return nil, "the message has no value"
	}
	if m.payload, ok = x.bytes(v); !ok {
		return nil, unsupported("the message value (an Encoder other than StringEncoder/ByteEncoder)")
	}
	var why string
	if m.headers, why = x.headerList(field(l, "Headers")); why != "" {
		return nil, why
	}
	return []message{x.finish(m)}, ""
}

func franz(x *extractor, call *ast.CallExpr) ([]message, string) {
	if call.Ellipsis.IsValid() {
		return nil, "records passed as a slice (rs...); write one outbox.Insert per record by hand"
	}
	var out []message
	for _, a := range call.Args[1:] {
		l, ok := x.lit(a)
		if !ok || !keyed(l) {
			return nil, unsupported("a kgo.Record that is not a keyed literal")
		}
		if f := otherField(l, "Topic", "Key", "Value", "Headers"); f != "" {
			return nil, rowCannotCarry("kgo.Record", f)
		}
		var m message
		topic := field(l, "Topic")
		if topic == nil {
			return nil, "the record has no Topic (the client's default topic is not visible here); write the outbox row by hand"
		}
		if m.aggType, ok = x.str(topic); !ok {
			return nil, unsupported("the topic")
		}
		if k := field(l, "Key"); k != nil {
			if m.aggID, ok = x.str(k); !ok {
				return nil, unsupported("the record key")
			}
		}
		if m.payload, ok = x.bytes(field(l, "Value")); !ok {
			return nil, unsupported("the record value")
		}
		var why string
		if m.headers, why = x.headerList(field(l, "Headers")); why != "" {
			return nil, why
		}
		out = append(out, x.finish(m))
	}
	return out, ""
}

func natsSubjectData(first int) func(*extractor, *ast.CallExpr) ([]message, string) {
	return func(x *extractor, call *ast.CallExpr) ([]message, string) {
		var m message
		var ok bool
		if m.aggType, ok = x.str(call.Args[first]); !ok {
			return nil, unsupported("the subject")
		}
		if m.payload, ok = x.bytes(call.Args[first+1]); !ok {
			return nil, unsupported("the data")
		}
		return []message{x.finish(m)}, ""
	}
}

func natsMsg(first int) func(*extractor, *ast.CallExpr) ([]message, string) {
	return func(x *extractor, call *ast.CallExpr) ([]message, string) {
		l, ok := x.lit(call.Args[first])
		if !ok || !keyed(l) {
			return nil, unsupported("a nats.Msg that is not a keyed literal")
		}
		var m message
		if m.aggType, ok = x.str(field(l, "Subject")); !ok {
			return nil, unsupported("the subject")
		}
		if m.payload, ok = x.bytes(field(l, "Data")); !ok {
			return nil, unsupported("the data")
		}
		var why string
		m.headers, why = x.headerMap(field(l, "Header"), func(v ast.Expr) (dst.Expr, bool) {
			vl, ok := x.lit(v)
			if !ok || len(vl.Elts) != 1 {
				return nil, false
			}
			return x.str(vl.Elts[0])
		})
		if why != "" {
			return nil, why
		}
		return []message{x.finish(m)}, ""
	}
}

func amqpPublish(first int) func(*extractor, *ast.CallExpr) ([]message, string) {
	return func(x *extractor, call *ast.CallExpr) ([]message, string) {
		exchange, key := call.Args[first], call.Args[first+1]
		var m message
		ex, exConst := x.constString(exchange)
		rk, rkConst := x.constString(key)
		switch {
		case exConst && ex == "":
			var ok bool
			if m.aggType, ok = x.defaultExchange(key); !ok {
				return nil, unsupported("the routing key")
			}
		case exConst && rkConst:
			m.aggType = strLit(ex + "/" + rk)
		default:
			exE, ok1 := x.str(exchange)
			rkE, ok2 := x.str(key)
			if !ok1 || !ok2 {
				return nil, unsupported("the exchange or routing key")
			}
			m.aggType = &dst.BinaryExpr{X: &dst.BinaryExpr{X: exE, Op: token.ADD, Y: strLit("/")}, Op: token.ADD, Y: rkE}
		}
		l, ok := x.lit(call.Args[first+4])
		if !ok || !keyed(l) {
			return nil, unsupported("a Publishing that is not a keyed literal")
		}
		if m.payload, ok = x.bytes(field(l, "Body")); !ok {
			return nil, unsupported("the body")
		}
		if t := field(l, "Type"); t != nil {
			if m.eventType, ok = x.str(t); !ok {
				return nil, unsupported("the message type")
			}
		}
		var why string
		if m.headers, why = x.headerMap(field(l, "Headers"), x.str); why != "" {
			return nil, why
		}
		return []message{x.finish(m)}, ""
	}
}

// defaultExchange is the aggregate_type of a publish to the default
// exchange with routing key key. The relay splits aggregate_type at its
// first "/" into exchange and routing key, so a key that has or may have a
// "/" (FluxMQ's "$queue/events/...") gets a leading "/": the empty exchange.
func (x *extractor) defaultExchange(key ast.Expr) (dst.Expr, bool) {
	if k, ok := x.constString(key); ok {
		if !strings.Contains(k, "/") {
			return x.str(key)
		}
		return strLit("/" + k), true
	}
	e, ok := x.str(key)
	if !ok {
		return nil, false
	}
	// "$queue/events/" + stream becomes "/$queue/events/" + stream
	left := e
	for {
		b, ok := left.(*dst.BinaryExpr)
		if !ok || b.Op != token.ADD {
			break
		}
		left = b.X
	}
	if l, ok := left.(*dst.BasicLit); ok && l.Kind == token.STRING {
		if v, err := strconv.Unquote(l.Value); err == nil {
			l.Value = strconv.Quote("/" + v)
			return e, true
		}
	}
	return &dst.BinaryExpr{X: strLit("/"), Op: token.ADD, Y: e}, true
}

// fluxPublish maps FluxMQ's AMQP client Publish(topic, payload) and
// PublishContext(ctx, topic, payload): the topic is the routing key on the
// default exchange.
func fluxPublish(first int) func(*extractor, *ast.CallExpr) ([]message, string) {
	return func(x *extractor, call *ast.CallExpr) ([]message, string) {
		var m message
		var ok bool
		if m.aggType, ok = x.defaultExchange(call.Args[first]); !ok {
			return nil, unsupported("the topic")
		}
		m.eventType, _ = x.str(call.Args[first]) // the topic as written
		if m.payload, ok = x.bytes(call.Args[first+1]); !ok {
			return nil, unsupported("the payload")
		}
		return []message{x.finish(m)}, ""
	}
}

// fluxPublishOptions maps FluxMQ's PublishWithOptions(opts) and
// PublishWithOptionsContext(ctx, opts): Topic as in fluxPublish, Payload,
// and Properties as the headers (FluxMQ sends the keys that are not AMQP
// properties as AMQP headers, as the relay does).
func fluxPublishOptions(first int) func(*extractor, *ast.CallExpr) ([]message, string) {
	return func(x *extractor, call *ast.CallExpr) ([]message, string) {
		l, ok := x.lit(call.Args[first])
		if !ok || !keyed(l) {
			return nil, unsupported("PublishOptions that are not a keyed literal")
		}
		var m message
		topic := field(l, "Topic")
		if topic == nil {
			return nil, "the publish names a routing key or exchange, not a topic; write the outbox row by hand"
		}
		if field(l, "Exchange") != nil || field(l, "RoutingKey") != nil || field(l, "Mandatory") != nil || field(l, "Immediate") != nil {
			return nil, "the publish sets an exchange, routing key or delivery flags; write the outbox row by hand"
		}
		if m.aggType, ok = x.defaultExchange(topic); !ok {
			return nil, unsupported("the topic")
		}
		m.eventType, _ = x.str(topic)
		if m.payload, ok = x.bytes(field(l, "Payload")); !ok {
			return nil, unsupported("the payload")
		}
		if p := field(l, "Properties"); p != nil {
			if pl, ok := ast.Unparen(p).(*ast.CompositeLit); ok {
				var why string
				if m.headers, why = x.headerMap(pl, x.str); why != "" {
					return nil, why
				}
			} else if t := x.info.TypeOf(p); t != nil && types.Identical(t, types.NewMap(types.Typ[types.String], types.Typ[types.String])) {
				m.headersExpr = x.clone(p)
			} else {
				return nil, unsupported("the properties")
			}
		}
		return []message{x.finish(m)}, ""
	}
}

// awsAttributes maps SNS/SQS MessageAttributes (string values only).
func (x *extractor) awsAttributes(e ast.Expr) ([]header, string) {
	return x.headerMap(e, func(v ast.Expr) (dst.Expr, bool) {
		vl, ok := x.lit(v)
		if !ok {
			return nil, false
		}
		sv := field(vl, "StringValue")
		if sv == nil {
			return nil, false
		}
		return x.str(sv)
	})
}

func snsPublish(x *extractor, call *ast.CallExpr) ([]message, string) {
	l, ok := x.lit(call.Args[1])
	if !ok || !keyed(l) {
		return nil, unsupported("a PublishInput that is not a keyed literal")
	}
	var m message
	arn := field(l, "TopicArn")
	if arn == nil {
		return nil, "the publish has no TopicArn (TargetArn/PhoneNumber are not broker topics); write the outbox row by hand"
	}
	if m.aggType, ok = x.str(arn); !ok {
		return nil, unsupported("the topic ARN")
	}
	if m.payload, ok = x.bytes(field(l, "Message")); !ok {
		return nil, unsupported("the message")
	}
	return x.finishAWS(l, m)
}

// finishAWS completes an SNS or SQS message: the FIFO group id is the
// ordering key, message attributes become headers.
func (x *extractor) finishAWS(l *ast.CompositeLit, m message) ([]message, string) {
	if g := field(l, "MessageGroupId"); g != nil {
		var ok bool
		if m.aggID, ok = x.str(g); !ok {
			return nil, unsupported("the message group id")
		}
	}
	var why string
	if m.headers, why = x.awsAttributes(field(l, "MessageAttributes")); why != "" {
		return nil, why
	}
	return []message{x.finish(m)}, ""
}

func sqsSend(x *extractor, call *ast.CallExpr) ([]message, string) {
	l, ok := x.lit(call.Args[1])
	if !ok || !keyed(l) {
		return nil, unsupported("a SendMessageInput that is not a keyed literal")
	}
	var m message
	if m.aggType, ok = x.str(field(l, "QueueUrl")); !ok {
		return nil, unsupported("the queue URL")
	}
	if m.payload, ok = x.bytes(field(l, "MessageBody")); !ok {
		return nil, unsupported("the message body")
	}
	return x.finishAWS(l, m)
}

func kinesisPut(x *extractor, call *ast.CallExpr) ([]message, string) {
	l, ok := x.lit(call.Args[1])
	if !ok || !keyed(l) {
		return nil, unsupported("a PutRecordInput that is not a keyed literal")
	}
	var m message
	stream := field(l, "StreamName")
	if stream == nil {
		return nil, "the record names its stream by ARN only; write the outbox row by hand"
	}
	if m.aggType, ok = x.str(stream); !ok {
		return nil, unsupported("the stream name")
	}
	if m.aggID, ok = x.str(field(l, "PartitionKey")); !ok {
		return nil, unsupported("the partition key")
	}
	if m.payload, ok = x.bytes(field(l, "Data")); !ok {
		return nil, unsupported("the data")
	}
	return []message{x.finish(m)}, ""
}

// pubsubPublish reads the topic id from the handle's constructor call
// (client.Topic("orders") / client.Publisher("orders")), in the call or in
// a local variable assigned once.
func pubsubPublish(ctor string) func(*extractor, *ast.CallExpr) ([]message, string) {
	return func(x *extractor, call *ast.CallExpr) ([]message, string) {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, unsupported("the topic")
		}
		recv := ast.Unparen(sel.X)
		if id, ok := recv.(*ast.Ident); ok {
			recv = x.definition(id)
		}
		rc, ok := recv.(*ast.CallExpr)
		var rs *ast.SelectorExpr
		if ok {
			rs, ok = ast.Unparen(rc.Fun).(*ast.SelectorExpr)
		}
		if !ok || rs.Sel.Name != ctor || len(rc.Args) != 1 {
			return nil, "the topic is a handle made elsewhere (its id is not visible here); write the outbox row by hand with the topic id as AggregateType"
		}
		var m message
		if m.aggType, ok = x.str(rc.Args[0]); !ok {
			return nil, unsupported("the topic id")
		}
		l, ok := x.lit(call.Args[1])
		if !ok || !keyed(l) {
			return nil, unsupported("a pubsub.Message that is not a keyed literal")
		}
		if m.payload, ok = x.bytes(field(l, "Data")); !ok {
			return nil, unsupported("the data")
		}
		if k := field(l, "OrderingKey"); k != nil {
			if m.aggID, ok = x.str(k); !ok {
				return nil, unsupported("the ordering key")
			}
		}
		var why string
		if m.headers, why = x.headerMap(field(l, "Attributes"), x.str); why != "" {
			return nil, why
		}
		return []message{x.finish(m)}, ""
	}
}

// definition returns the value a local variable was assigned once, or id.
// When the publish is the variable's only use, its declaration goes with it.
func (x *extractor) definition(id *ast.Ident) ast.Expr {
	obj := x.info.Uses[id]
	var val ast.Expr
	var def ast.Stmt
	n, uses := 0, 0
	ast.Inspect(x.body, func(nd ast.Node) bool {
		switch nd := nd.(type) {
		case *ast.AssignStmt:
			if len(nd.Lhs) == len(nd.Rhs) {
				for i, l := range nd.Lhs {
					if li, ok := l.(*ast.Ident); ok && (x.info.Defs[li] == obj || x.info.Uses[li] == obj) {
						val, def = nd.Rhs[i], nd
						n++
					}
				}
			}
		case *ast.Ident:
			if x.info.Uses[nd] == obj {
				uses++
			}
		}
		return true
	})
	if n != 1 || obj == nil {
		return id
	}
	if as, ok := def.(*ast.AssignStmt); ok && uses == 1 && len(as.Lhs) == 1 && as.Tok == token.DEFINE {
		x.removable = append(x.removable, def)
	} else {
		x.deps = append(x.deps, id)
	}
	return val
}

func redisPublish(x *extractor, call *ast.CallExpr) ([]message, string) {
	var m message
	var ok bool
	if m.aggType, ok = x.str(call.Args[1]); !ok {
		return nil, unsupported("the channel")
	}
	if m.payload, ok = x.bytes(call.Args[2]); !ok {
		return nil, "the message is not a string or []byte (go-redis encodes it itself); marshal it and insert the outbox row by hand"
	}
	return []message{x.finish(m)}, ""
}

var streamPayloadFields = []string{"payload", "data", "body", "event", "message"}

// streamFields maps an XAdd whose Values are an expression of a type
// go-redis flattens (a map or a list of names and values) onto
// outbox.Message.StreamFields, with the entry's MaxLen and Approx. An entry
// with its own ID, MinID trimming or NoMkStream is left to a person: the
// relay's XAdd could not keep it.
func (x *extractor) streamFields(l *ast.CompositeLit, m message, vals ast.Expr) ([]message, string) {
	if vals == nil {
		return nil, unsupported("a stream entry without values")
	}
	switch t := types.TypeString(x.info.TypeOf(vals), nil); t {
	case "map[string]interface{}", "map[string]any", "map[string]string", "[]string", "[]interface{}", "[]any":
	default:
		return nil, "the stream entry's values are a " + t + " (not a map or a list of names and values); write the outbox row by hand"
	}
	for _, f := range []string{"ID", "MinID", "NoMkStream", "Limit"} {
		if e := field(l, f); e != nil {
			if tv, ok := x.info.Types[e]; ok && tv.Value != nil && (tv.Value.ExactString() == `""` || tv.Value.ExactString() == `"*"` || tv.Value.ExactString() == "false" || tv.Value.ExactString() == "0") {
				continue // the default, spelled out
			}
			return nil, "the stream entry sets " + f + ", which the relay's XAdd cannot keep; write the outbox row by hand"
		}
	}
	m.fields = x.clone(vals)
	if e := field(l, "MaxLen"); e != nil {
		m.maxLen = x.clone(e)
	}
	if e := field(l, "Approx"); e != nil {
		m.approx = x.clone(e)
	}
	if e := field(l, "MaxLenApprox"); e != nil && m.maxLen == nil {
		// go-redis v8's older spelling of MaxLen with Approx
		m.maxLen, m.approx = x.clone(e), dst.NewIdent("true")
	}
	return []message{x.finish(m)}, ""
}

func redisXAdd(x *extractor, call *ast.CallExpr) ([]message, string) {
	l, ok := x.lit(call.Args[1])
	if !ok || !keyed(l) {
		return nil, unsupported("XAddArgs that are not a keyed literal")
	}
	var m message
	if m.aggType, ok = x.str(field(l, "Stream")); !ok {
		return nil, unsupported("the stream")
	}
	vals := field(l, "Values")
	vl, ok := x.lit(vals)
	if _, isMap := x.info.TypeOf(vl).(*types.Map); !ok || !isMap {
		// Values built at run time (a map the service fills), or a list of
		// names and values: the row keeps them as they are and the relay
		// writes the same entry.
		return x.streamFields(l, m, vals)
	}
	type kv struct {
		k string
		v ast.Expr
	}
	var entries []kv
	for _, el := range vl.Elts {
		p, ok := el.(*ast.KeyValueExpr)
		if !ok {
			return nil, unsupported("a stream entry value list")
		}
		k, ok := x.constString(p.Key)
		if !ok {
			return nil, "a stream field name is not a constant"
		}
		entries = append(entries, kv{k, p.Value})
	}
	payloadAt := -1
	for _, name := range streamPayloadFields {
		for i, e := range entries {
			if strings.EqualFold(e.k, name) && payloadAt < 0 {
				payloadAt = i
			}
		}
	}
	if payloadAt < 0 && len(entries) == 1 {
		payloadAt = 0
	}
	if payloadAt < 0 {
		return nil, "no stream field holds the payload (payload/data/body); write the outbox row by hand"
	}
	for i, e := range entries {
		if i == payloadAt {
			if m.payload, ok = x.bytes(e.v); !ok {
				return nil, unsupported("the payload field")
			}
			continue
		}
		v, ok := x.str(e.v)
		if !ok {
			return nil, "stream field " + strconv.Quote(e.k) + " is not a string"
		}
		m.headers = append(m.headers, header{e.k, v})
	}
	return []message{x.finish(m)}, ""
}

// mqttPublish maps paho's Publish(topic, qos, retained, payload): the topic
// is the aggregate type (MQTT has no key), QoS and the retain flag travel in
// the mqtt-qos and mqtt-retained headers the relay's MQTT publisher reads.
func mqttPublish(x *extractor, call *ast.CallExpr) ([]message, string) {
	var m message
	var ok bool
	if m.aggType, ok = x.str(call.Args[0]); !ok {
		return nil, unsupported("the topic")
	}
	for _, h := range []struct {
		key string
		arg ast.Expr
	}{{"mqtt-qos", call.Args[1]}, {"mqtt-retained", call.Args[2]}} {
		v, ok := x.constText(h.arg)
		if !ok {
			if v, ok = x.str(h.arg); !ok {
				return nil, unsupported(h.key)
			}
		}
		m.headers = append(m.headers, header{key: h.key, value: v})
	}
	if m.payload, ok = x.bytes(call.Args[3]); !ok {
		return nil, "the payload is not a string or []byte (paho also takes a bytes.Buffer); convert it and insert the outbox row by hand"
	}
	return []message{x.finish(m)}, ""
}

// constText is a numeric or boolean constant as a string literal.
func (x *extractor) constText(e ast.Expr) (dst.Expr, bool) {
	tv, ok := x.info.Types[ast.Unparen(e)]
	if !ok || tv.Value == nil {
		return nil, false
	}
	switch tv.Value.Kind() {
	case constant.Int, constant.Bool:
		return strLit(tv.Value.ExactString()), true
	}
	return nil, false
}
