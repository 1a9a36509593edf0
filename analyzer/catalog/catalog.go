package catalog

import (
	"go/types"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Kind says what a catalog row does.
type Kind uint8

const (
	Write        Kind = iota + 1 // writes to a store of record
	Query                        // a write only when its SQL text is a constant DML statement
	Begin                        // returns a transaction handle (result 0)
	Commit                       // commits the receiver's transaction
	Rollback                     // rolls the receiver's transaction back
	TxFunc                       // runs the callback argument Func in a transaction, commits when it returns nil
	Publish                      // sends a message to a broker
	OutboxInsert                 // inserts an outbox row on the handle argument Handle
	Consume                      // receives broker messages (loop form, or a handler callback in Func)
	CacheWrite                   // writes a cache (not a DB write unless configured as a writer)
	Retry                        // runs the callback argument Func again until it succeeds (a retry helper)
	// Later stores the callback arguments from Func on for later (a route,
	// a cron job, a timer): registering runs none of them; each is an entry
	// point of its own, checked on its own, never paired with its caller.
	Later
	// Dequeue takes an item off a queue the program keeps itself (a Redis
	// list pop): where a package calls one, its list pushes are publishes.
	Dequeue
)

var kindNames = [...]string{"", "write", "query", "begin", "commit", "rollback", "txfunc", "publish", "outbox", "consume", "cachewrite", "retry", "later", "dequeue"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind?"
}

// Stores of record.
const (
	SQL       = "sql"
	DynamoDB  = "dynamodb"
	MongoDB   = "mongodb"
	Cassandra = "cassandra"
	Firestore = "firestore"
	RethinkDB = "rethinkdb"
	Spanner   = "spanner"
	Datastore = "datastore"
	DaprState = "daprstate"
	LDAP      = "ldap" // a directory as the store of record (users, groups)
	KV        = "kv"   // a key-value store of record (go-micro's store: NATS KV, Redis, ...)
	Redis     = "redis"
)

// NoArg marks an absent argument index.
const NoArg = -1

// Entry is one catalog row.
type Entry struct {
	Name   string // full name of the callee, the row's key
	Kind   Kind
	Store  string // Write/Query/Begin/Commit/TxFunc rows: the store of record
	Broker string // Publish/Consume rows: kafka, nats, jetstream, amqp, sns, sqs, eventbridge, kinesis, pubsub, redis, watermill, stan, asynq
	// SQL is the index of the SQL text argument, NoArg if none. Query rows
	// are writes only when it is a constant DML statement; any row whose SQL
	// inserts into an outbox table is an outbox insert instead of a write.
	SQL int
	// SQLInRecv: the SQL text is argument SQL of the call that built the
	// receiver (gocql: session.Query(stmt, ...).Exec()).
	SQLInRecv bool
	// CtxTx (writes): the write joins the transaction its context carries
	// (GoFrame's Model.Ctx(ctx) inside a Transaction callback), as Mongo's
	// and Firestore's writes do.
	CtxTx bool
	// Func is the index of the callback argument of TxFunc, Retry and
	// callback Consume rows, the first callback argument of Later rows
	// (it and every later argument), NoArg otherwise.
	Func int
	// Handle is the index of the argument that is the DB handle for
	// OutboxInsert rows; NoArg means the receiver.
	Handle int
	// Send marks rows whose result is a channel: the publish is the send on it
	// (sarama AsyncProducer.Input() <- msg).
	Send bool
	// ListPush marks a push onto a Redis list (LPUSH, RPUSH) or sorted set
	// (ZADD): a publish to a work queue only in a package that also takes
	// items off one (Dequeue rows: the queue's own wrapper pops it); elsewhere a list is
	// data kept in a cache and the push is no publish.
	ListPush bool
	// Command marks clients that take the Redis command as a string (redigo's
	// Conn.Do, radix's Cmd): the first string parameter names it, and the
	// call does what CommandEffect says of that name when it is a constant.
	Command bool
	// Request marks a publish that waits for a reply (NATS request-reply):
	// the message reaches the broker as any publish does, so it pairs with a
	// write, but an outbox row cannot hand the caller a reply, so fix leaves it
	// to a person.
	Request bool
	// Message maps a publish to the parts of an outbox message (paths, see package doc).
	Message Message
}

// Message says where a publish call carries each part of the message.
type Message struct {
	Topic      string // topic, subject, stream, queue URL, topic ARN
	Exchange   string // AMQP exchange
	RoutingKey string // AMQP routing key
	Key        string // partition / ordering key
	Value      string // payload bytes
	Headers    string // headers / attributes / metadata
	EventType  string // event type when the client has a field for it
}

// redisCommands: what a Redis command named by a string does, for Command
// rows. Everything else (SET, HSET, EXPIRE, ...) is cache work: no effect.
var redisCommands = map[string]Kind{
	"PUBLISH": Publish, "SPUBLISH": Publish, "XADD": Publish,
	"LPUSH": Publish, "RPUSH": Publish, "LPUSHX": Publish, "RPUSHX": Publish, // list pushes: redisListPush
	"BLPOP": Dequeue, "BRPOP": Dequeue, "BRPOPLPUSH": Dequeue, "BLMOVE": Dequeue, "BLMPOP": Dequeue,
	"LPOP": Dequeue, "RPOP": Dequeue, "RPOPLPUSH": Dequeue, "LMOVE": Dequeue, "LMPOP": Dequeue,
	"ZADD":    Publish, // a sorted-set queue (redisListPush: only where the package pops one)
	"ZPOPMIN": Dequeue, "ZPOPMAX": Dequeue, "BZPOPMIN": Dequeue, "BZPOPMAX": Dequeue, "BZMPOP": Dequeue, "ZMPOP": Dequeue,
}

// CommandEffect says what the Redis command cmd does (any case): Publish
// (with listPush for a list push, a publish only where the package also
// pops a list), Dequeue, or 0 for none.
func CommandEffect(cmd string) (k Kind, listPush bool) {
	cmd = strings.ToUpper(cmd)
	return redisCommands[cmd], redisListPush[cmd]
}

var redisListPush = map[string]bool{"LPUSH": true, "RPUSH": true, "LPUSHX": true, "RPUSHX": true, "ZADD": true}

// CommandArg is the index of the argument of a Command row's call that
// names the command: the first string parameter of sig, -1 if none.
func CommandArg(sig *types.Signature) int {
	for i := 0; i < sig.Params().Len(); i++ {
		if b, ok := sig.Params().At(i).Type().(*types.Basic); ok && b.Kind() == types.String {
			return i
		}
	}
	return NoArg
}

// readBuilders are query builders that only read, though their Exec
// returns a database/sql.Result (bun's SelectQuery.Exec runs the SELECT
// and scans): the "returns a Result, so it writes" fallback skips them.
var readBuilders = map[string]bool{
	bun + ".SelectQuery": true, "github.com/Masterminds/squirrel.SelectBuilder": true,
	"github.com/doug-martin/goqu/v9.SelectDataset": true, "github.com/gocraft/dbr/v2.SelectStmt": true,
	"github.com/gocraft/dbr.SelectStmt": true,
}

// ReadBuilder reports whether t (or what it points to) is a read-only query builder.
func ReadBuilder(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && readBuilders[n.Obj().Pkg().Path()+"."+n.Obj().Name()]
}

// builderTypes are the command builders whose method names the Redis
// command the chain builds (rueidis: client.B().Publish().Channel(c)...).
var builderTypes = map[string]bool{rueidis + "/internal/cmds.Builder": true}

// BuilderCommand returns the Redis command a call of method on a value of
// type recv starts building, "" if recv is no command builder.
func BuilderCommand(recv types.Type, method string) string {
	if n, ok := types.Unalias(recv).(*types.Named); ok && n.Obj().Pkg() != nil &&
		builderTypes[n.Obj().Pkg().Path()+"."+n.Obj().Name()] {
		return method
	}
	return ""
}

// SentOn returns the Send row whose channel carries values of type elem
// (*sarama.ProducerMessage for AsyncProducer.Input), nil if none.
func (c *Catalog) SentOn(elem types.Type) *Entry {
	if name, ok := sentTypes[types.TypeString(elem, nil)]; ok {
		return c.byName[name]
	}
	return nil
}

// IsWrite reports whether the row writes a store (Query rows only conditionally).
func (e *Entry) IsWrite() bool { return e.Kind == Write || e.Kind == Query }

// Catalog is a set of rows with fast lookup by callee.
type Catalog struct {
	byName  map[string]*Entry
	byKey   map[matchKey]*Entry // the same rows, keyed without building full names
	pkgs    map[string]bool     // import paths declaring a row
	clients map[string]bool     // import paths declaring a built-in row
	// laterOnly: import paths whose rows are all Later rows (a router, a
	// scheduler): they say how closures are run, and a package importing
	// one reaches no store or broker through it.
	laterOnly map[string]bool
	modules   []string           // import path prefixes of the clients' modules
	txTypes   map[[2]string]bool // {import path, type name} of transaction handle types

	publishNames map[string]bool // method names of publish and write rows (MatchInterface's first filter)
	ifaceMu      sync.Mutex
	ifaceHits    map[*types.Func]ifaceHit
}

var defaultCatalog = build(nil)

// Default returns the built-in catalog.
func Default() *Catalog { return defaultCatalog }

// With returns a catalog holding c's rows plus extra (extra rows win).
func (c *Catalog) With(extra []Entry) *Catalog {
	if len(extra) == 0 {
		return c
	}
	all := make([]Entry, 0, len(c.byName)+len(extra))
	all = append(all, c.Entries()...)
	all = append(all, extra...)
	out := buildFrom(all)
	out.clients = c.clients // configured rows name the team's own code: keep analyzing it
	return out
}

func build([]Entry) *Catalog {
	c := buildFrom(rows)
	c.clients = map[string]bool{}
	for p := range c.pkgs {
		if !c.laterOnly[p] {
			c.clients[p] = true
		}
	}
	return c
}

func buildFrom(list []Entry) *Catalog {
	c := &Catalog{byName: make(map[string]*Entry, len(list)), byKey: make(map[matchKey]*Entry, len(list)), pkgs: map[string]bool{}, laterOnly: map[string]bool{}, txTypes: map[[2]string]bool{}}
	for i := range list {
		e := list[i]
		c.byName[e.Name] = &e
		if k, ok := parseKey(e.Name); ok {
			c.byKey[k] = &e
		}
		if p := PackageOf(e.Name); p != "" {
			if !c.pkgs[p] {
				c.laterOnly[p] = true
			}
			c.pkgs[p] = true
			if e.Kind != Later {
				c.laterOnly[p] = false
			}
		}
		if e.Kind == Publish || e.Kind == Write {
			if c.publishNames == nil {
				c.publishNames = map[string]bool{}
			}
			if k, ok := parseKey(e.Name); ok {
				c.publishNames[k.name] = true
			}
		}
	}
	for _, t := range txTypeNames {
		dot := strings.LastIndex(t, ".")
		c.txTypes[[2]string{t[:dot], t[dot+1:]}] = true
	}
	c.modules = clientModules
	return c
}

// Entries returns the rows sorted by name.
func (c *Catalog) Entries() []Entry {
	out := make([]Entry, 0, len(c.byName))
	for _, e := range c.byName {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the row keyed by a full name.
func (c *Catalog) Lookup(name string) (*Entry, bool) {
	e, ok := c.byName[name]
	return e, ok
}

// HasPackage reports whether a row is declared in the package at path
// that writes, publishes or runs transactions (not only Later rows).
func (c *Catalog) HasPackage(path string) bool { return c.pkgs[path] && !c.laterOnly[path] }

// Declares reports whether the catalog has rows for the package at path
// (a client, a router or scheduler): how it runs the closures it is given
// is the rows' to say, not what its bodies look like.
func (c *Catalog) Declares(path string) bool { return c.pkgs[path] }

// IsClient reports whether path belongs to one of the catalogued client
// libraries; the analyzer trusts the rows for those and does not look inside.
func (c *Catalog) IsClient(path string) bool {
	if c.clients[path] {
		return true
	}
	for _, m := range c.modules {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
		}
	}
	return false
}

// Match returns the row for a callee, or nil. It allocates nothing: the
// lookup key is made of strings go/types already holds.
func (c *Catalog) Match(fn *types.Func) *Entry {
	pkg := fn.Pkg()
	if pkg == nil || !c.pkgs[pkg.Path()] {
		return nil
	}
	fn = fn.Origin()
	k := matchKey{pkg: pkg.Path(), name: fn.Name()}
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t, k.ptr = p.Elem(), true
		}
		switch n := types.Unalias(t).(type) {
		case *types.Named:
			k.recv = n.Origin().Obj().Name()
		default:
			return c.byName[fn.FullName()] // unnamed receivers: rare, take the slow path
		}
	}
	return c.byKey[k]
}

// matchKey identifies a function or method without its full name string.
type matchKey struct {
	pkg, recv, name string
	ptr             bool
}

// parseKey splits "(*pkg.Recv).Name", "(pkg.Recv).Name" or "pkg.Name".
func parseKey(full string) (matchKey, bool) {
	var k matchKey
	if strings.HasPrefix(full, "(") {
		end := strings.Index(full, ").")
		if end < 0 {
			return k, false
		}
		recv := full[1:end]
		k.name = full[end+2:]
		if strings.HasPrefix(recv, "*") {
			k.ptr, recv = true, recv[1:]
		}
		dot := strings.LastIndex(recv, ".")
		if dot < 0 {
			return k, false
		}
		k.pkg, k.recv = recv[:dot], recv[dot+1:]
		return k, true
	}
	k.pkg = PackageOf(full)
	if k.pkg == "" {
		return k, false
	}
	k.name = full[len(k.pkg)+1:]
	return k, true
}

// IsTxType reports whether t (or *t) is a transaction handle type of a client.
func (c *Catalog) IsTxType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return c.txTypes[[2]string{n.Obj().Pkg().Path(), n.Obj().Name()}]
}

// PackageOf returns the import path of the package declaring a full name:
// "(*database/sql.Tx).Exec" -> "database/sql", "github.com/jackc/pgx/v5.BeginFunc" -> "github.com/jackc/pgx/v5".
func PackageOf(name string) string {
	if strings.HasPrefix(name, "(") {
		end := strings.Index(name, ")")
		if end < 0 {
			return ""
		}
		name = strings.TrimPrefix(name[1:end], "*")
	}
	dot := strings.LastIndex(name, ".")
	slash := strings.LastIndex(name, "/")
	if dot < 0 || dot < slash {
		return ""
	}
	// For a receiver "path.Type" or a function "path.Func" the package is before the last dot.
	return name[:dot]
}

// Short abbreviates a full name for messages: import paths become their last
// element ("(*database/sql.Tx).ExecContext" -> "(*sql.Tx).ExecContext").
func Short(name string) string {
	if strings.Contains(name, "[") {
		// an instantiated generic type's method, (pkg.Port[pkg.Event]).M:
		// each qualified name on its own
		return qualified.ReplaceAllStringFunc(name, Short)
	}
	p := PackageOf(name)
	if p == "" {
		return name
	}
	base := p[strings.LastIndex(p, "/")+1:]
	if isMajorVersion(base) { // github.com/jackc/pgx/v5 -> pgx
		q := p[:strings.LastIndex(p, "/")]
		base = q[strings.LastIndex(q, "/")+1:]
	}
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".go"), "-go")
	if i := strings.LastIndex(base, "-"); i >= 0 { // kafka-go -> kafka, amqp091-go handled above
		base = base[i+1:]
	}
	return strings.Replace(name, p+".", base+".", 1)
}

// qualified matches an import-path-qualified name inside a type string.
var qualified = regexp.MustCompile(`[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+\.[A-Za-z0-9_]+`)

func isMajorVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' {
		return false
	}
	for _, r := range s[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// MatchInterface matches a method of a team's own interface that a
// client's catalogued publisher or store writer satisfies: a producer
// wrapper typed by `type JetStreamPublisher interface{ PublishMsg(*nats.Msg,
// ...nats.PubOpt) (*nats.PubAck, error) }` is a JetStream publish whatever
// value main puts in it, and a `Collection` interface over
// *mongo.Collection's InsertOne is a MongoDB write; the Commit and Rollback
// of a transaction interface (one with both) that a client's transaction
// type implements are that client's (stellar's DBTransaction over
// *sqlx.Tx). The candidates are the named types of the client packages the
// interface's package imports (its signatures mention them) and of those
// in extra. It returns the row and the client's method, or nil.
func (c *Catalog) MatchInterface(m *types.Func, extra ...*types.Package) (*Entry, *types.Func) {
	recv := m.Signature().Recv()
	if recv == nil || m.Pkg() == nil {
		return nil, nil
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok || c.pkgs[m.Pkg().Path()] {
		return nil, nil
	}
	txMethod := (m.Name() == "Commit" || m.Name() == "Rollback") && hasMethods(iface, "Commit", "Rollback")
	if !c.publishNames[m.Name()] && !txMethod {
		return nil, nil
	}
	c.ifaceMu.Lock()
	defer c.ifaceMu.Unlock()
	if hit, ok := c.ifaceHits[m]; ok {
		return hit.row, hit.fn
	}
	var candidates []*types.Package
	candidates = append(candidates, m.Pkg().Imports()...)
	candidates = append(candidates, extra...)
	var hit ifaceHit
	seen := map[*types.Package]bool{}
	for _, p := range candidates {
		if seen[p] || !c.pkgs[p.Path()] {
			continue
		}
		seen[p] = true
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || tn.IsAlias() {
				continue
			}
			for _, t := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
				if _, isPtrToIface := t.(*types.Pointer); isPtrToIface && types.IsInterface(tn.Type()) {
					continue
				}
				if !types.Implements(t, iface) {
					continue
				}
				obj, _, _ := types.LookupFieldOrMethod(t, true, p, m.Name())
				fn, ok := obj.(*types.Func)
				if !ok {
					continue
				}
				if row := c.Match(fn); row != nil && (row.Kind == Publish || row.Kind == Write || txMethod && (row.Kind == Commit || row.Kind == Rollback)) {
					hit = ifaceHit{row: row, fn: fn}
					break
				}
			}
			if hit.row != nil {
				break
			}
		}
		if hit.row != nil {
			break
		}
	}
	if c.ifaceHits == nil {
		c.ifaceHits = map[*types.Func]ifaceHit{}
	}
	c.ifaceHits[m] = hit
	return hit.row, hit.fn
}

type ifaceHit struct {
	row *Entry
	fn  *types.Func
}

// hasMethods reports whether the interface has every named method.
func hasMethods(iface *types.Interface, names ...string) bool {
	for _, n := range names {
		found := false
		for i := 0; i < iface.NumMethods(); i++ {
			if iface.Method(i).Name() == n {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
