package rewrite

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// publisher tells how one publish API's arguments map onto an outbox row.
type publisher struct {
	// messages extracts the outbox rows the call would have published; a
	// non-empty reason means it cannot be done without guessing.
	messages func(x *extractor, call *ast.CallExpr) ([]message, string)
	// chain lists result methods that may be called on the publish's result
	// to get its error (franz-go FirstErr, pubsub Get, go-redis Err); the
	// whole chain is the publish then.
	chain []string
}

// publishers is keyed by the publish API's full name ((*types.Func).FullName).
// Each row maps topic/subject/exchange+routing key to AggregateType, the
// message key to AggregateID and the marshalled value to Payload; headers
// go to Headers, a type header to EventType.
var publishers = map[string]publisher{
	"(*github.com/segmentio/kafka-go.Writer).WriteMessages": {messages: kafkaGo},

	"(github.com/IBM/sarama.SyncProducer).SendMessage":     {messages: sarama},
	"(github.com/Shopify/sarama.SyncProducer).SendMessage": {messages: sarama},

	"(*github.com/twmb/franz-go/pkg/kgo.Client).ProduceSync": {messages: franz, chain: []string{"FirstErr"}},

	"(*github.com/nats-io/nats.go.Conn).Publish":                  {messages: natsSubjectData(0)},
	"(github.com/nats-io/nats.go.JetStream).Publish":              {messages: natsSubjectData(0)},
	"(github.com/nats-io/nats.go/jetstream.Publisher).Publish":    {messages: natsSubjectData(1)},
	"(*github.com/nats-io/nats.go.Conn).PublishMsg":               {messages: natsMsg(0)},
	"(github.com/nats-io/nats.go.JetStream).PublishMsg":           {messages: natsMsg(0)},
	"(github.com/nats-io/nats.go/jetstream.Publisher).PublishMsg": {messages: natsMsg(1)},

	"(*github.com/rabbitmq/amqp091-go.Channel).PublishWithContext": {messages: amqpPublish(1)},
	"(*github.com/rabbitmq/amqp091-go.Channel).Publish":            {messages: amqpPublish(0)},
	"(*github.com/streadway/amqp.Channel).Publish":                 {messages: amqpPublish(0)},

	"(*github.com/absmach/fluxmq/client/amqp.Client).Publish":        {messages: fluxPublish(0)},
	"(*github.com/absmach/fluxmq/client/amqp.Client).PublishContext": {messages: fluxPublish(1)},

	"(*github.com/absmach/fluxmq/client/amqp.Client).PublishWithOptions":        {messages: fluxPublishOptions(0)},
	"(*github.com/absmach/fluxmq/client/amqp.Client).PublishWithOptionsContext": {messages: fluxPublishOptions(1)},

	"(*github.com/aws/aws-sdk-go-v2/service/sns.Client).Publish":       {messages: snsPublish},
	"(*github.com/aws/aws-sdk-go-v2/service/sqs.Client).SendMessage":   {messages: sqsSend},
	"(*github.com/aws/aws-sdk-go-v2/service/kinesis.Client).PutRecord": {messages: kinesisPut},

	"(*cloud.google.com/go/pubsub.Topic).Publish":        {messages: pubsubPublish("Topic"), chain: []string{"Get"}},
	"(*cloud.google.com/go/pubsub/v2.Publisher).Publish": {messages: pubsubPublish("Publisher"), chain: []string{"Get"}},

	"(github.com/redis/go-redis/v9.cmdable).Publish":        {messages: redisPublish, chain: []string{"Err", "Result"}},
	"(github.com/redis/go-redis/v9.cmdable).SPublish":       {messages: redisPublish, chain: []string{"Err", "Result"}},
	"(github.com/redis/go-redis/v9.PubSubCmdable).Publish":  {messages: redisPublish, chain: []string{"Err", "Result"}},
	"(github.com/redis/go-redis/v9.PubSubCmdable).SPublish": {messages: redisPublish, chain: []string{"Err", "Result"}},
	"(github.com/redis/go-redis/v9.StreamCmdable).XAdd":     {messages: redisXAdd, chain: []string{"Err", "Result"}},
	"(github.com/go-redis/redis/v8.Cmdable).Publish":        {messages: redisPublish, chain: []string{"Err", "Result"}},
	"(github.com/go-redis/redis/v8.Cmdable).XAdd":           {messages: redisXAdd, chain: []string{"Err", "Result"}},
	"(github.com/go-redis/redis/v8.cmdable).Publish":        {messages: redisPublish, chain: []string{"Err", "Result"}},
	"(github.com/go-redis/redis/v8.cmdable).XAdd":           {messages: redisXAdd, chain: []string{"Err", "Result"}},
	"(github.com/redis/go-redis/v9.cmdable).XAdd":           {messages: redisXAdd, chain: []string{"Err", "Result"}},

	// paho's Publish returns a Token the caller waits on: guarded as the
	// rest of the wrapper (tokenTail) when nothing else follows it.
	"(github.com/eclipse/paho.mqtt.golang.Client).Publish": {messages: mqttPublish},
}

// txClient is one database client's transaction idiom: how a write moves
// onto a transaction. What a write is, is the analyzer's catalog's to say
// (catalogWrite), so scan and fix agree on it.
type txClient struct {
	name string
	// handles are the types (types.TypeString) a transaction is opened on.
	handles []string
	// txTypes are the types of its transaction handle.
	txTypes []string
	// begin is the method opening a transaction and whether it takes ctx
	// (and, for database/sql, nil options).
	begin       string
	beginCtx    bool
	beginOpts   bool
	rollbackCtx bool // Rollback/Commit take ctx (pgx)
}

var txClients = []*txClient{
	{
		name:      "database/sql",
		handles:   []string{"*database/sql.DB", "*database/sql.Conn"},
		txTypes:   []string{"*database/sql.Tx"},
		begin:     "BeginTx",
		beginCtx:  true,
		beginOpts: true,
	},
	{
		name:        "pgx",
		handles:     []string{"*github.com/jackc/pgx/v5/pgxpool.Pool", "*github.com/jackc/pgx/v5.Conn", "*github.com/jackc/pgx/v4/pgxpool.Pool", "*github.com/jackc/pgx/v4.Conn"},
		txTypes:     []string{"github.com/jackc/pgx/v5.Tx", "github.com/jackc/pgx/v4.Tx"},
		begin:       "Begin",
		beginCtx:    true,
		rollbackCtx: true,
	},
	{
		name:    "sqlx",
		handles: []string{"*github.com/jmoiron/sqlx.DB"},
		txTypes: []string{"*github.com/jmoiron/sqlx.Tx"},
		begin:   "Beginx",
	},
	{
		name:    "gorm",
		handles: []string{"*gorm.io/gorm.DB"},
		txTypes: []string{"*gorm.io/gorm.DB"},
		begin:   "Transaction",
	},
}

// catalogWrite reports whether call, a method call on a handle of client c,
// writes by the analyzer's catalog (a Write row, or a Query row whose SQL
// text is DML), and whether c's transaction has the same method with the
// same signature, so moving the write onto it is a receiver swap.
func catalogWrite(info *types.Info, c *txClient, call *ast.CallExpr, sel *ast.SelectorExpr) (write, movable bool) {
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok {
		return false, false
	}
	e := catalog.Default().Match(fn)
	if e == nil || e.Store != catalog.SQL {
		return false, false
	}
	switch e.Kind {
	case catalog.Write:
	case catalog.Query:
		if !dmlArg(info, call, e.SQL) {
			return false, false
		}
	default:
		return false, false
	}
	tx := c.txType(info.TypeOf(sel.X))
	if tx == nil {
		return true, false
	}
	obj, _, _ := types.LookupFieldOrMethod(tx, true, fn.Pkg(), fn.Name())
	m, ok := obj.(*types.Func)
	return true, ok && types.Identical(m.Type(), fn.Type())
}

// dmlArg reports whether argument i of call (any argument when i is
// catalog.NoArg) is constant SQL text that writes.
func dmlArg(info *types.Info, call *ast.CallExpr, i int) bool {
	for j, a := range call.Args {
		if i != catalog.NoArg && j != i {
			continue
		}
		tv, ok := info.Types[a]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			continue
		}
		return catalog.ClassifySQL(constant.StringVal(tv.Value)) == catalog.SQLDML
	}
	return false
}

// txType finds c's transaction type among the packages the handle's
// package sees (its own and its imports: pgxpool.Pool's is pgx.Tx).
func (c *txClient) txType(handle types.Type) types.Type {
	if p, ok := handle.(*types.Pointer); ok {
		handle = p.Elem()
	}
	n, ok := handle.(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	pkgs := append([]*types.Package{n.Obj().Pkg()}, n.Obj().Pkg().Imports()...)
	for _, want := range c.txTypes {
		full := strings.TrimPrefix(want, "*")
		dot := strings.LastIndex(full, ".")
		for _, p := range pkgs {
			if p.Path() != full[:dot] {
				continue
			}
			if tn, ok := p.Scope().Lookup(full[dot+1:]).(*types.TypeName); ok {
				if strings.HasPrefix(want, "*") {
					return types.NewPointer(tn.Type())
				}
				return tn.Type()
			}
		}
	}
	return nil
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// typeHeaders are header names whose value is the event type.
var typeHeaders = set("type", "event-type", "event_type", "eventtype", "ce_type", "ce-type", "message-type", "x-event-type")

// marshalFuncs produce a payload from a Go value; the value's type names the event.
var marshalFuncs = set("encoding/json.Marshal", "encoding/json.MarshalIndent",
	"google.golang.org/protobuf/proto.Marshal", "github.com/golang/protobuf/proto.Marshal",
	"encoding/xml.Marshal", "github.com/vmihailenco/msgpack/v5.Marshal")

// servingPackages are packages whose calls may sit next to a publish in a
// goroutine, defer or retry loop without making it do more than publish.
var servingPackages = set("log", "log/slog", "fmt", "time", "errors", "go.uber.org/zap", "github.com/sirupsen/logrus", "github.com/rs/zerolog")

// dbPackages are the packages whose calls make a statement a database access
// (used to refuse moving a payload computed after Commit: it would be a re-read).
var dbPackages = set("database/sql", "github.com/jackc/pgx/v5", "github.com/jackc/pgx/v5/pgxpool",
	"github.com/jackc/pgx/v4", "github.com/jackc/pgx/v4/pgxpool", "github.com/jmoiron/sqlx", "gorm.io/gorm")

var _ = token.ILLEGAL
