package catalog

import "strconv"

// Import paths of the catalogued clients.
const (
	pgx5       = "github.com/jackc/pgx/v5"
	crdb       = "github.com/cockroachdb/cockroach-go/v2/crdb"
	pgx5pool   = "github.com/jackc/pgx/v5/pgxpool"
	pgx4       = "github.com/jackc/pgx/v4"
	pgx4pool   = "github.com/jackc/pgx/v4/pgxpool"
	sqlx       = "github.com/jmoiron/sqlx"
	gorm       = "gorm.io/gorm"
	bun        = "github.com/uptrace/bun"
	mongo1     = "go.mongodb.org/mongo-driver/mongo"
	mongo2     = "go.mongodb.org/mongo-driver/v2/mongo"
	dynamo     = "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	gocql      = "github.com/gocql/gocql"
	gocql2     = "github.com/apache/cassandra-gocql-driver/v2" // gocql under the Apache Software Foundation
	firestore  = "cloud.google.com/go/firestore"
	spanner    = "cloud.google.com/go/spanner"
	datastore  = "cloud.google.com/go/datastore"
	dapr       = "github.com/dapr/go-sdk/client"
	gfdb       = "github.com/gogf/gf/v2/database/gdb"
	kafkago    = "github.com/segmentio/kafka-go"
	ibmSarama  = "github.com/IBM/sarama"
	shopSarama = "github.com/Shopify/sarama"
	kgo        = "github.com/twmb/franz-go/pkg/kgo"
	confluent1 = "github.com/confluentinc/confluent-kafka-go/kafka"
	confluent2 = "github.com/confluentinc/confluent-kafka-go/v2/kafka"
	nats       = "github.com/nats-io/nats.go"
	jetstream  = "github.com/nats-io/nats.go/jetstream"
	amqp091    = "github.com/rabbitmq/amqp091-go"
	streadway  = "github.com/streadway/amqp"
	sns        = "github.com/aws/aws-sdk-go-v2/service/sns"
	sqs        = "github.com/aws/aws-sdk-go-v2/service/sqs"
	eventbr    = "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	kinesis    = "github.com/aws/aws-sdk-go-v2/service/kinesis"
	pubsub1    = "cloud.google.com/go/pubsub"
	pubsub2    = "cloud.google.com/go/pubsub/v2"
	redis8     = "github.com/go-redis/redis/v8"
	redis9     = "github.com/redis/go-redis/v9"
	redigo     = "github.com/gomodule/redigo/redis"
	redigoOld  = "github.com/garyburd/redigo/redis"
	radix3     = "github.com/mediocregopher/radix/v3"
	radix4     = "github.com/mediocregopher/radix/v4"
	ldap3      = "github.com/go-ldap/ldap/v3"
	microEv    = "go-micro.dev/v4/events"
	microBr    = "go-micro.dev/v4/broker"
	microStore = "go-micro.dev/v4/store"
	watermill  = "github.com/ThreeDotsLabs/watermill/message"
	wmcqrs     = "github.com/ThreeDotsLabs/watermill/components/cqrs"
	sqlgraph   = "entgo.io/ent/dialect/sql/sqlgraph"
	cloudev    = "github.com/cloudevents/sdk-go/v2/client"
	sns1       = "github.com/aws/aws-sdk-go/service/sns"
	sqs1       = "github.com/aws/aws-sdk-go/service/sqs"
	rocketmq   = "github.com/apache/rocketmq-client-go/v2"
	dynamo1    = "github.com/aws/aws-sdk-go/service/dynamodb"
	kinesis1   = "github.com/aws/aws-sdk-go/service/kinesis"
	eventbr1   = "github.com/aws/aws-sdk-go/service/eventbridge"
	pulsar     = "github.com/apache/pulsar-client-go/pulsar"
	nsq        = "github.com/nsqio/go-nsq"
	azsb       = "github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus"
	azeh       = "github.com/Azure/azure-sdk-for-go/sdk/messaging/azeventhubs/v2"
	redis7     = "github.com/go-redis/redis/v7"
	gorm1      = "github.com/jinzhu/gorm"
	mgo        = "gopkg.in/mgo.v2"
	gorp2      = "github.com/go-gorp/gorp"
	gorp3      = "github.com/go-gorp/gorp/v3"
	rethink    = "gopkg.in/rethinkdb/rethinkdb-go.v6"
	stan       = "github.com/nats-io/stan.go"
	asynq      = "github.com/hibiken/asynq"
	paho       = "github.com/eclipse/paho.mqtt.golang"
	machinery  = "github.com/RichardKnop/machinery/v1"
	fluxamqp   = "github.com/absmach/fluxmq/client/amqp"
	gocloudps  = "gocloud.dev/pubsub"
	gopg       = "github.com/go-pg/pg/v10"
	gopgorm    = "github.com/go-pg/pg/v10/orm"
	goamqp     = "github.com/Azure/go-amqp"
	paho5      = "github.com/eclipse/paho.golang/paho"
	autopaho   = "github.com/eclipse/paho.golang/autopaho"
	rueidis    = "github.com/redis/rueidis"
	gfredis    = "github.com/gogf/gf/v2/database/gredis"
	river      = "github.com/riverqueue/river"
)

// clientModules are the modules whose packages the analyzer never looks
// inside: the rows describe their API.
var clientModules = []string{
	pgx5, pgx4, "github.com/jackc/pgconn", sqlx, gorm, bun, "go.mongodb.org/mongo-driver",
	"github.com/aws/aws-sdk-go-v2", gocql, firestore, kafkago, ibmSarama, shopSarama,
	"github.com/twmb/franz-go", "github.com/confluentinc/confluent-kafka-go", nats,
	amqp091, streadway, pubsub1, "github.com/go-redis/redis", "github.com/redis/go-redis",
	"github.com/ThreeDotsLabs/watermill", stan, asynq, paho, "github.com/RichardKnop/machinery",
	"github.com/absmach/fluxmq", "gocloud.dev", "entgo.io/ent", "github.com/cloudevents/sdk-go",
	"github.com/aws/aws-sdk-go", "github.com/apache/rocketmq-client-go",
	"github.com/apache/pulsar-client-go", nsq, "github.com/Azure/azure-sdk-for-go/sdk/messaging",
	gorm1, mgo, gorp2, rethink, spanner, datastore, "github.com/dapr/go-sdk", gfdb,
	"github.com/go-pg/pg", goamqp, "github.com/eclipse/paho.golang", rueidis, river,
	"github.com/cockroachdb/cockroach-go",
}

// txTypeNames are the types whose values are open transactions.
var txTypeNames = []string{
	"database/sql.Tx", pgx5 + ".Tx", pgx5pool + ".Tx", pgx4 + ".Tx", pgx4pool + ".Tx",
	sqlx + ".Tx", bun + ".Tx", firestore + ".Transaction", mongo1 + ".SessionContext",
	gorp2 + ".Transaction", gorp3 + ".Transaction", gfdb + ".TX", gfdb + ".TXCore",
	spanner + ".ReadWriteTransaction", spanner + ".ReadWriteStmtBasedTransaction", datastore + ".Transaction",
	gopg + ".Tx",
}

// sentTypes: the message type a Send row's channel carries -> that row.
// A send of one on a channel of the service's own (an interface's Input()
// that the client implements) is the same publish.
var sentTypes = map[string]string{}

func m(recv, method string) string { return "(" + recv + ")." + method }

func p(recv, method string) string { return "(*" + recv + ")." + method }

// write: a store write without SQL text.
func write(store, name string) Entry {
	return Entry{Name: name, Kind: Write, Store: store, SQL: NoArg, Func: NoArg, Handle: NoArg}
}

// exec: an SQL write whose SQL text is argument sqlArg.
func exec(name string, sqlArg int) Entry {
	e := write(SQL, name)
	e.SQL = sqlArg
	return e
}

// query: a write only when its SQL text (argument sqlArg) is DML.
func query(name string, sqlArg int) Entry {
	e := exec(name, sqlArg)
	e.Kind = Query
	return e
}

func tx(kind Kind, store, name string) Entry {
	e := write(store, name)
	e.Kind = kind
	return e
}

func txFunc(store, name string, fn int) Entry {
	e := tx(TxFunc, store, name)
	e.Func = fn
	return e
}

func publish(broker, name string, msg Message) Entry {
	return Entry{Name: name, Kind: Publish, Broker: broker, SQL: NoArg, Func: NoArg, Handle: NoArg, Message: msg}
}

func send(broker, name string, msg Message) Entry {
	e := publish(broker, name, msg)
	e.Send = true
	return e
}

func request(broker, name string, msg Message) Entry {
	e := publish(broker, name, msg)
	e.Request = true
	return e
}

func consume(broker, name string, handler int) Entry {
	return Entry{Name: name, Kind: Consume, Broker: broker, SQL: NoArg, Func: handler, Handle: NoArg}
}

// later: a registration that stores callback arguments fn... for later.
func later(name string, fn int) Entry {
	return Entry{Name: name, Kind: Later, SQL: NoArg, Func: fn, Handle: NoArg}
}

func cache(name string) Entry {
	e := write(Redis, name)
	e.Kind = CacheWrite
	return e
}

// sqlHandle lists the rows of a database/sql-shaped handle (database/sql,
// and the Exec/Query family sqlx and others promote from it).
func sqlHandle(recv string, ctxOnly bool) []Entry {
	var out []Entry
	if !ctxOnly {
		out = append(out, exec(p(recv, "Exec"), 0), query(p(recv, "Query"), 0), query(p(recv, "QueryRow"), 0))
	}
	return append(out, exec(p(recv, "ExecContext"), 1), query(p(recv, "QueryContext"), 1), query(p(recv, "QueryRowContext"), 1))
}

// pgxHandle lists the rows of a pgx handle (Conn, Pool, pool Conn, Tx).
func pgxHandle(recv string, ptr bool) []Entry {
	f := p
	if !ptr {
		f = m
	}
	return []Entry{
		exec(f(recv, "Exec"), 1), query(f(recv, "Query"), 1), query(f(recv, "QueryRow"), 1),
		write(SQL, f(recv, "SendBatch")), write(SQL, f(recv, "CopyFrom")),
	}
}

var rows = func() []Entry {
	var r []Entry
	add := func(es ...Entry) { r = append(r, es...) }

	// database/sql
	add(sqlHandle("database/sql.DB", false)...)
	add(sqlHandle("database/sql.Tx", false)...)
	add(sqlHandle("database/sql.Conn", true)...)
	add(write(SQL, p("database/sql.Stmt", "Exec")), write(SQL, p("database/sql.Stmt", "ExecContext")))
	// a prepared statement's query writes when the SQL it was prepared with
	// (found through the field that holds it) is DML: INSERT ... RETURNING
	add(query(p("database/sql.Stmt", "Query"), NoArg), query(p("database/sql.Stmt", "QueryContext"), NoArg),
		query(p("database/sql.Stmt", "QueryRow"), NoArg), query(p("database/sql.Stmt", "QueryRowContext"), NoArg))
	add(tx(Begin, SQL, p("database/sql.DB", "Begin")), tx(Begin, SQL, p("database/sql.DB", "BeginTx")),
		tx(Begin, SQL, p("database/sql.Conn", "BeginTx")),
		tx(Commit, SQL, p("database/sql.Tx", "Commit")), tx(Rollback, SQL, p("database/sql.Tx", "Rollback")))

	// pgx v5 and v4
	for _, v := range []struct{ pgx, pool string }{{pgx5, pgx5pool}, {pgx4, pgx4pool}} {
		add(pgxHandle(v.pgx+".Conn", true)...)
		add(pgxHandle(v.pool+".Pool", true)...)
		add(pgxHandle(v.pool+".Conn", true)...)
		add(pgxHandle(v.pool+".Tx", true)...)
		add(pgxHandle(v.pgx+".Tx", false)...) // interface
		for _, h := range []string{p(v.pgx+".Conn", "Begin"), p(v.pgx+".Conn", "BeginTx"), p(v.pool+".Pool", "Begin"),
			p(v.pool+".Pool", "BeginTx"), p(v.pool+".Conn", "Begin"), p(v.pool+".Conn", "BeginTx"), m(v.pgx+".Tx", "Begin")} {
			add(tx(Begin, SQL, h))
		}
		add(tx(Commit, SQL, m(v.pgx+".Tx", "Commit")), tx(Rollback, SQL, m(v.pgx+".Tx", "Rollback")),
			tx(Commit, SQL, p(v.pool+".Tx", "Commit")), tx(Rollback, SQL, p(v.pool+".Tx", "Rollback")))
	}
	add(txFunc(SQL, pgx5+".BeginFunc", 2), txFunc(SQL, pgx5+".BeginTxFunc", 3))
	// cockroach-go's retrying runners: the callback runs in a transaction
	// they commit before returning (a helper's CockroachDB branch)
	add(txFunc(SQL, crdb+".ExecuteTx", 3), txFunc(SQL, crdb+"/crdbsqlx.ExecuteTx", 3),
		txFunc(SQL, crdb+"/crdbpgxv5.ExecuteTx", 3), txFunc(SQL, crdb+"/crdbgorm.ExecuteTx", 3))
	add(txFunc(SQL, p(pgx4+".Conn", "BeginFunc"), 1), txFunc(SQL, p(pgx4+".Conn", "BeginTxFunc"), 2),
		txFunc(SQL, p(pgx4pool+".Pool", "BeginFunc"), 1), txFunc(SQL, p(pgx4pool+".Pool", "BeginTxFunc"), 2))

	// sqlx (Exec/Query/Commit are promoted from database/sql and match those rows)
	for _, h := range []string{sqlx + ".DB", sqlx + ".Tx"} {
		add(exec(p(h, "NamedExec"), 0), exec(p(h, "NamedExecContext"), 1), exec(p(h, "MustExec"), 0),
			exec(p(h, "MustExecContext"), 1), query(p(h, "Queryx"), 0), query(p(h, "QueryxContext"), 1),
			query(p(h, "QueryRowx"), 0), query(p(h, "QueryRowxContext"), 1),
			// scanning helpers: INSERT/UPDATE ... RETURNING through them writes
			query(p(h, "Get"), 1), query(p(h, "GetContext"), 2), query(p(h, "Select"), 1), query(p(h, "SelectContext"), 2))
	}
	add(query(p(sqlx+".DB", "NamedQuery"), 0), query(p(sqlx+".DB", "NamedQueryContext"), 1),
		write(SQL, p(sqlx+".NamedStmt", "Exec")), write(SQL, p(sqlx+".NamedStmt", "ExecContext")),
		tx(Begin, SQL, p(sqlx+".DB", "Beginx")), tx(Begin, SQL, p(sqlx+".DB", "BeginTxx")),
		tx(Begin, SQL, p(sqlx+".DB", "MustBegin")), tx(Begin, SQL, p(sqlx+".DB", "MustBeginTx")))

	// gorm: every method returns *gorm.DB; the transaction is a *gorm.DB too.
	for _, n := range []string{"Create", "CreateInBatches", "Save", "Update", "Updates", "UpdateColumn", "UpdateColumns", "Delete", "FirstOrCreate"} {
		add(write(SQL, p(gorm+".DB", n)))
	}
	add(exec(p(gorm+".DB", "Exec"), 0), txFunc(SQL, p(gorm+".DB", "Transaction"), 0),
		tx(Begin, SQL, p(gorm+".DB", "Begin")), tx(Commit, SQL, p(gorm+".DB", "Commit")), tx(Rollback, SQL, p(gorm+".DB", "Rollback")))

	// jinzhu/gorm (gorm v1), the same shape on its own import path
	for _, n := range []string{"Create", "Save", "Update", "Updates", "UpdateColumn", "UpdateColumns", "Delete", "FirstOrCreate"} {
		add(write(SQL, p(gorm1+".DB", n)))
	}
	add(exec(p(gorm1+".DB", "Exec"), 0), txFunc(SQL, p(gorm1+".DB", "Transaction"), 0),
		tx(Begin, SQL, p(gorm1+".DB", "Begin")), tx(Commit, SQL, p(gorm1+".DB", "Commit")), tx(Rollback, SQL, p(gorm1+".DB", "Rollback")))

	// GoFrame's gdb (github.com/gogf/gf/v2): the chained Model's writes, the
	// DB interface and its Core, the TX interface and its TXCore. Reads
	// (All, One, Scan, Count, ...) are not rows: gdb's own bodies, which
	// run schema queries and caches behind every Model, are not read.
	modelWrites := []string{"Insert", "InsertAndGetId", "InsertIgnore", "Replace", "Save", "Update", "UpdateAndGetAffected", "Delete", "Increment", "Decrement"}
	for _, n := range modelWrites {
		e := write(SQL, p(gfdb+".Model", n))
		e.CtxTx = true
		add(e)
	}
	for _, n := range []string{"Insert", "InsertIgnore", "InsertAndGetId", "Replace", "Save", "Update", "Delete"} {
		add(write(SQL, m(gfdb+".DB", n)), write(SQL, p(gfdb+".Core", n)), write(SQL, m(gfdb+".TX", n)), write(SQL, p(gfdb+".TXCore", n)))
	}
	add(exec(m(gfdb+".DB", "Exec"), 1), exec(p(gfdb+".Core", "Exec"), 1), exec(m(gfdb+".TX", "Exec"), 0), exec(p(gfdb+".TXCore", "Exec"), 0),
		query(m(gfdb+".DB", "Query"), 1), query(p(gfdb+".Core", "Query"), 1), query(m(gfdb+".TX", "Query"), 0), query(p(gfdb+".TXCore", "Query"), 0),
		txFunc(SQL, m(gfdb+".DB", "Transaction"), 1), txFunc(SQL, p(gfdb+".Core", "Transaction"), 1), txFunc(SQL, p(gfdb+".Model", "Transaction"), 1),
		txFunc(SQL, m(gfdb+".TX", "Transaction"), 1), txFunc(SQL, p(gfdb+".TXCore", "Transaction"), 1),
		tx(Begin, SQL, m(gfdb+".DB", "Begin")), tx(Begin, SQL, p(gfdb+".Core", "Begin")),
		tx(Commit, SQL, m(gfdb+".TX", "Commit")), tx(Commit, SQL, p(gfdb+".TXCore", "Commit")),
		tx(Rollback, SQL, m(gfdb+".TX", "Rollback")), tx(Rollback, SQL, p(gfdb+".TXCore", "Rollback")))

	// gorp (v2 and v3): the SqlExecutor interface WithContext returns, the
	// DbMap and its Transaction. The Select family runs the SQL it is given
	// (an INSERT ... RETURNING through SelectOne is a write).
	for _, g := range []string{gorp2, gorp3} {
		for _, recv := range []func(string) string{
			func(n string) string { return m(g+".SqlExecutor", n) },
			func(n string) string { return p(g+".DbMap", n) },
			func(n string) string { return p(g+".Transaction", n) },
		} {
			add(exec(recv("Exec"), 0), query(recv("Query"), 0), query(recv("QueryRow"), 0),
				query(recv("Select"), 1), query(recv("SelectOne"), 1),
				write(SQL, recv("Insert")), write(SQL, recv("Update")), write(SQL, recv("Delete")))
			for _, n := range []string{"SelectInt", "SelectNullInt", "SelectFloat", "SelectNullFloat", "SelectStr", "SelectNullStr"} {
				add(query(recv(n), 0))
			}
		}
		add(write(SQL, p(g+".DbMap", "UpdateColumns")), write(SQL, p(g+".Transaction", "UpdateColumns")),
			tx(Begin, SQL, p(g+".DbMap", "Begin")), tx(Commit, SQL, p(g+".Transaction", "Commit")), tx(Rollback, SQL, p(g+".Transaction", "Rollback")))
	}

	// bun: the query builders' Exec; the handle is the root of the chain.
	for _, q := range []string{"InsertQuery", "UpdateQuery", "DeleteQuery"} {
		add(write(SQL, p(bun+"."+q, "Exec")))
	}
	add(txFunc(SQL, p(bun+".DB", "RunInTx"), 2), tx(Begin, SQL, p(bun+".DB", "BeginTx")),
		tx(Commit, SQL, m(bun+".Tx", "Commit")), tx(Rollback, SQL, m(bun+".Tx", "Rollback")))

	// go-pg (v10): the ORM query's writes (the handle is the root of the
	// chain: db.Model(x) or tx.Model(x)), the raw Exec and Query families
	// (DB's are promoted from its unexported baseDB), and transactions.
	for _, n := range []string{"Insert", "SelectOrInsert", "Update", "UpdateNotZero", "Delete", "ForceDelete"} {
		add(write(SQL, p(gopgorm+".Query", n)))
	}
	add(exec(p(gopgorm+".Query", "Exec"), 0), exec(p(gopgorm+".Query", "ExecOne"), 0))
	for _, h := range []string{gopg + ".baseDB", gopg + ".Tx"} {
		add(exec(p(h, "Exec"), 0), exec(p(h, "ExecOne"), 0), exec(p(h, "ExecContext"), 1), exec(p(h, "ExecOneContext"), 1),
			query(p(h, "Query"), 1), query(p(h, "QueryOne"), 1), query(p(h, "QueryContext"), 2), query(p(h, "QueryOneContext"), 2),
			txFunc(SQL, p(h, "RunInTransaction"), 1))
	}
	add(tx(Begin, SQL, p(gopg+".baseDB", "Begin")), tx(Begin, SQL, p(gopg+".baseDB", "BeginContext")),
		tx(Commit, SQL, p(gopg+".Tx", "Commit")), tx(Commit, SQL, p(gopg+".Tx", "CommitContext")),
		tx(Rollback, SQL, p(gopg+".Tx", "Rollback")), tx(Rollback, SQL, p(gopg+".Tx", "RollbackContext")))

	// ent: the builders ent generates into the module (Save, Exec, ID of
	// the Create/Update/Delete/Upsert builders) end in these sqlgraph calls.
	for _, n := range []string{"CreateNode", "BatchCreate", "UpdateNode", "UpdateNodes", "DeleteNodes"} {
		add(write(SQL, sqlgraph+"."+n))
	}

	// MongoDB v1 and v2
	for _, mg := range []string{mongo1, mongo2} {
		for _, n := range []string{"InsertOne", "InsertMany", "UpdateOne", "UpdateMany", "UpdateByID", "ReplaceOne",
			"DeleteOne", "DeleteMany", "BulkWrite", "FindOneAndUpdate", "FindOneAndReplace", "FindOneAndDelete"} {
			add(write(MongoDB, p(mg+".Collection", n)))
		}
	}
	add(txFunc(MongoDB, m(mongo1+".Session", "WithTransaction"), 1), txFunc(MongoDB, p(mongo2+".Session", "WithTransaction"), 1))

	// mgo, the MongoDB driver before the official one
	for _, n := range []string{"Insert", "Update", "UpdateId", "UpdateAll", "Upsert", "UpsertId", "Remove", "RemoveId", "RemoveAll"} {
		add(write(MongoDB, p(mgo+".Collection", n)))
	}

	// RethinkDB: RunWrite runs a write query (Insert, Update, Replace,
	// Delete); Run and Exec run reads and DDL as well, so they are left out
	add(write(RethinkDB, m(rethink+".Term", "RunWrite")))

	// DynamoDB (SDK v2, and v1 plain and WithContext)
	for _, n := range []string{"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"} {
		add(write(DynamoDB, p(dynamo+".Client", n)), write(DynamoDB, p(dynamo1+".DynamoDB", n)), write(DynamoDB, p(dynamo1+".DynamoDB", n+"WithContext")))
	}

	// Cassandra
	q := write(Cassandra, p(gocql+".Query", "Exec"))
	q.SQL, q.SQLInRecv = 0, true
	add(q, write(Cassandra, p(gocql+".Session", "ExecuteBatch")))
	for _, n := range []string{"Exec", "ExecContext"} {
		q2 := write(Cassandra, p(gocql2+".Query", n))
		q2.SQL, q2.SQLInRecv = 0, true
		add(q2, write(Cassandra, p(gocql2+".Batch", n)))
	}
	add(write(Cassandra, p(gocql2+".Session", "ExecuteBatch")))

	// Firestore
	for _, n := range []string{"Set", "Create", "Update", "Delete"} {
		add(write(Firestore, p(firestore+".DocumentRef", n)), write(Firestore, p(firestore+".Transaction", n)))
	}
	add(write(Firestore, p(firestore+".CollectionRef", "Add")), write(Firestore, p(firestore+".WriteBatch", "Commit")),
		txFunc(Firestore, p(firestore+".Client", "RunTransaction"), 1))

	// Cloud Spanner: mutations applied on their own (Apply, BatchWrite,
	// partitioned DML) commit at once; a read-write transaction buffers
	// mutations or runs DML and commits when its callback returns nil, or
	// at Commit for the statement-based form
	for _, n := range []string{"Apply", "BatchWrite", "BatchWriteWithOptions", "PartitionedUpdate", "PartitionedUpdateWithOptions"} {
		add(write(Spanner, p(spanner+".Client", n)))
	}
	for _, n := range []string{"BufferWrite", "Update", "UpdateWithOptions", "BatchUpdate", "BatchUpdateWithOptions"} {
		add(write(Spanner, p(spanner+".ReadWriteTransaction", n)))
	}
	add(txFunc(Spanner, p(spanner+".Client", "ReadWriteTransaction"), 1), txFunc(Spanner, p(spanner+".Client", "ReadWriteTransactionWithOptions"), 1),
		tx(Begin, Spanner, spanner+".NewReadWriteStmtBasedTransaction"), tx(Begin, Spanner, spanner+".NewReadWriteStmtBasedTransactionWithOptions"),
		tx(Commit, Spanner, p(spanner+".ReadWriteStmtBasedTransaction", "Commit")), tx(Commit, Spanner, p(spanner+".ReadWriteStmtBasedTransaction", "CommitWithReturnResp")),
		tx(Rollback, Spanner, p(spanner+".ReadWriteStmtBasedTransaction", "Rollback")))

	// Cloud Datastore (and Firestore in Datastore mode)
	for _, n := range []string{"Put", "PutMulti", "Delete", "DeleteMulti", "Mutate"} {
		add(write(Datastore, p(datastore+".Client", n)), write(Datastore, p(datastore+".Transaction", n)))
	}
	add(txFunc(Datastore, p(datastore+".Client", "RunInTransaction"), 1), tx(Begin, Datastore, p(datastore+".Client", "NewTransaction")),
		tx(Commit, Datastore, p(datastore+".Transaction", "Commit")), tx(Rollback, Datastore, p(datastore+".Transaction", "Rollback")))

	// Kafka: segmentio/kafka-go
	add(publish("kafka", p(kafkago+".Writer", "WriteMessages"), Message{Topic: "1[].Topic|recv.Topic", Key: "1[].Key", Value: "1[].Value", Headers: "1[].Headers"}),
		publish("kafka", p(kafkago+".Conn", "WriteMessages"), Message{Topic: "0[].Topic|recv()3", Key: "0[].Key", Value: "0[].Value", Headers: "0[].Headers"}),
		consume("kafka", p(kafkago+".Reader", "FetchMessage"), NoArg), consume("kafka", p(kafkago+".Reader", "ReadMessage"), NoArg))
	// Kafka: sarama (IBM and Shopify)
	for _, s := range []string{ibmSarama, shopSarama} {
		sentTypes["*"+s+".ProducerMessage"] = m(s+".AsyncProducer", "Input")
		pm := Message{Topic: "0.Topic", Key: "0.Key", Value: "0.Value", Headers: "0.Headers"}
		add(publish("kafka", m(s+".SyncProducer", "SendMessage"), pm),
			publish("kafka", m(s+".SyncProducer", "SendMessages"), Message{Topic: "0[].Topic", Key: "0[].Key", Value: "0[].Value", Headers: "0[].Headers"}),
			send("kafka", m(s+".AsyncProducer", "Input"), Message{Topic: "sent.Topic", Key: "sent.Key", Value: "sent.Value", Headers: "sent.Headers"}),
			consume("kafka", m(s+".ConsumerGroup", "Consume"), 2),
			consume("kafka", m(s+".PartitionConsumer", "Messages"), NoArg))
	}
	// Kafka: franz-go
	rec := Message{Topic: "1.Topic|recv", Key: "1.Key", Value: "1.Value", Headers: "1.Headers"}
	add(publish("kafka", p(kgo+".Client", "Produce"), rec), publish("kafka", p(kgo+".Client", "TryProduce"), rec),
		publish("kafka", p(kgo+".Client", "ProduceSync"), Message{Topic: "1[].Topic|recv", Key: "1[].Key", Value: "1[].Value", Headers: "1[].Headers"}),
		consume("kafka", p(kgo+".Client", "PollFetches"), NoArg), consume("kafka", p(kgo+".Client", "PollRecords"), NoArg))
	// Kafka: confluent-kafka-go v1 and v2
	for _, c := range []string{confluent1, confluent2} {
		sentTypes["*"+c+".Message"] = p(c+".Producer", "ProduceChannel")
		add(publish("kafka", p(c+".Producer", "Produce"), Message{Topic: "0.TopicPartition.Topic", Key: "0.Key", Value: "0.Value", Headers: "0.Headers"}),
			send("kafka", p(c+".Producer", "ProduceChannel"), Message{Topic: "sent.TopicPartition.Topic", Key: "sent.Key", Value: "sent.Value", Headers: "sent.Headers"}),
			consume("kafka", p(c+".Consumer", "ReadMessage"), NoArg), consume("kafka", p(c+".Consumer", "Poll"), NoArg))
	}

	// NATS core, legacy JetStream (JetStreamContext embeds JetStream), jetstream package
	add(publish("nats", p(nats+".Conn", "Publish"), Message{Topic: "0", Value: "1"}),
		publish("nats", p(nats+".Conn", "PublishMsg"), Message{Topic: "0.Subject", Value: "0.Data", Headers: "0.Header"}),
		publish("nats", p(nats+".Conn", "PublishRequest"), Message{Topic: "0", Value: "2"}),
		publish("nats", p(nats+".EncodedConn", "Publish"), Message{Topic: "0", Value: "1"}),
		// request-reply: the request is a message on the subject (RPC
		// libraries such as stormrpc and nats micro clients call these)
		request("nats", p(nats+".Conn", "Request"), Message{Topic: "0", Value: "1"}),
		request("nats", p(nats+".Conn", "RequestWithContext"), Message{Topic: "1", Value: "2"}),
		request("nats", p(nats+".Conn", "RequestMsg"), Message{Topic: "0.Subject", Value: "0.Data", Headers: "0.Header"}),
		request("nats", p(nats+".Conn", "RequestMsgWithContext"), Message{Topic: "1.Subject", Value: "1.Data", Headers: "1.Header"}),
		request("nats", p(nats+".EncodedConn", "Request"), Message{Topic: "0", Value: "1"}),
		request("nats", p(nats+".EncodedConn", "RequestWithContext"), Message{Topic: "1", Value: "2"}),
		publish("jetstream", m(nats+".JetStream", "Publish"), Message{Topic: "0", Value: "1"}),
		publish("jetstream", m(nats+".JetStream", "PublishMsg"), Message{Topic: "0.Subject", Value: "0.Data", Headers: "0.Header"}),
		publish("jetstream", m(nats+".JetStream", "PublishAsync"), Message{Topic: "0", Value: "1"}),
		publish("jetstream", m(nats+".JetStream", "PublishMsgAsync"), Message{Topic: "0.Subject", Value: "0.Data", Headers: "0.Header"}),
		publish("jetstream", m(jetstream+".Publisher", "Publish"), Message{Topic: "1", Value: "2"}),
		publish("jetstream", m(jetstream+".Publisher", "PublishMsg"), Message{Topic: "1.Subject", Value: "1.Data", Headers: "1.Header"}),
		publish("jetstream", m(jetstream+".Publisher", "PublishAsync"), Message{Topic: "0", Value: "1"}),
		publish("jetstream", m(jetstream+".Publisher", "PublishMsgAsync"), Message{Topic: "0.Subject", Value: "0.Data", Headers: "0.Header"}),
		consume("nats", p(nats+".Conn", "Subscribe"), 1), consume("nats", p(nats+".Conn", "QueueSubscribe"), 2),
		consume("nats", p(nats+".Subscription", "Fetch"), NoArg), consume("nats", p(nats+".Subscription", "NextMsg"), NoArg),
		consume("jetstream", m(nats+".JetStream", "Subscribe"), 1), consume("jetstream", m(nats+".JetStream", "QueueSubscribe"), 2),
		consume("jetstream", m(jetstream+".Consumer", "Consume"), 0), consume("jetstream", m(jetstream+".Consumer", "Fetch"), NoArg),
		consume("jetstream", m(jetstream+".Consumer", "Messages"), NoArg))

	// AMQP: amqp091-go and streadway/amqp
	for _, a := range []string{amqp091, streadway} {
		add(publish("amqp", p(a+".Channel", "Publish"), Message{Exchange: "0", RoutingKey: "1", Value: "4.Body", Headers: "4.Headers", EventType: "4.Type"}),
			consume("amqp", p(a+".Channel", "Consume"), NoArg))
	}
	ctxPub := Message{Exchange: "1", RoutingKey: "2", Value: "5.Body", Headers: "5.Headers", EventType: "5.Type"}
	add(consume("amqp", p(amqp091+".Channel", "ConsumeWithContext"), NoArg),
		publish("amqp", p(amqp091+".Channel", "PublishWithContext"), ctxPub),
		publish("amqp", p(amqp091+".Channel", "PublishWithDeferredConfirmWithContext"), ctxPub),
		publish("amqp", p(amqp091+".Channel", "PublishWithDeferredConfirm"), Message{Exchange: "0", RoutingKey: "1", Value: "4.Body", Headers: "4.Headers", EventType: "4.Type"}))

	// Go CDK pubsub (gocloud.dev): one Topic over NATS, Kafka, RabbitMQ,
	// SNS/SQS, GCP Pub/Sub (inngest's event stream, outpost's queues,
	// seaweedfs' filer notifications)
	add(publish("gocloud", p(gocloudps+".Topic", "Send"), Message{Topic: "recv()0", Value: "1.Body", Headers: "1.Metadata"}),
		consume("gocloud", p(gocloudps+".Subscription", "Receive"), NoArg))

	// FluxMQ's AMQP 0.9.1 client (supermq's event store and messaging):
	// a topic is the routing key on the default exchange.
	fluxOpts := Message{Topic: "0.Topic", Value: "0.Payload"}
	add(publish("amqp", p(fluxamqp+".Client", "Publish"), Message{Topic: "0", Value: "1"}),
		publish("amqp", p(fluxamqp+".Client", "PublishContext"), Message{Topic: "1", Value: "2"}),
		publish("amqp", p(fluxamqp+".Client", "PublishWithOptions"), fluxOpts),
		publish("amqp", p(fluxamqp+".Client", "PublishWithConfirm"), fluxOpts),
		publish("amqp", p(fluxamqp+".Client", "PublishWithOptionsContext"), Message{Topic: "1.Topic", Value: "1.Payload"}),
		publish("amqp", p(fluxamqp+".Client", "PublishToQueue"), Message{Topic: "0", Value: "1"}),
		publish("amqp", p(fluxamqp+".Client", "PublishToQueueContext"), Message{Topic: "1", Value: "2"}),
		publish("amqp", p(fluxamqp+".Client", "PublishToStream"), Message{Topic: "0", Value: "1", Headers: "2"}),
		publish("amqp", p(fluxamqp+".Client", "PublishToStreamContext"), Message{Topic: "1", Value: "2", Headers: "3"}),
		consume("amqp", p(fluxamqp+".Client", "Subscribe"), 1),
		consume("amqp", p(fluxamqp+".Client", "SubscribeToQueue"), 2))

	// AWS
	add(publish("sns", p(sns+".Client", "Publish"), Message{Topic: "1.TopicArn", Key: "1.MessageGroupId", Value: "1.Message", Headers: "1.MessageAttributes"}),
		publish("sns", p(sns+".Client", "PublishBatch"), Message{Topic: "1.TopicArn", Key: "1.PublishBatchRequestEntries[].MessageGroupId", Value: "1.PublishBatchRequestEntries[].Message", Headers: "1.PublishBatchRequestEntries[].MessageAttributes"}),
		publish("sqs", p(sqs+".Client", "SendMessage"), Message{Topic: "1.QueueUrl", Key: "1.MessageGroupId", Value: "1.MessageBody", Headers: "1.MessageAttributes"}),
		publish("sqs", p(sqs+".Client", "SendMessageBatch"), Message{Topic: "1.QueueUrl", Key: "1.Entries[].MessageGroupId", Value: "1.Entries[].MessageBody", Headers: "1.Entries[].MessageAttributes"}),
		consume("sqs", p(sqs+".Client", "ReceiveMessage"), NoArg),
		publish("eventbridge", p(eventbr+".Client", "PutEvents"), Message{Topic: "1.Entries[].EventBusName", Value: "1.Entries[].Detail", EventType: "1.Entries[].DetailType"}),
		publish("kinesis", p(kinesis+".Client", "PutRecord"), Message{Topic: "1.StreamName", Key: "1.PartitionKey", Value: "1.Data"}),
		publish("kinesis", p(kinesis+".Client", "PutRecords"), Message{Topic: "1.StreamName", Key: "1.Records[].PartitionKey", Value: "1.Records[].Data"}))
	// AWS SDK v1: the input is argument 0, or 1 in the WithContext form
	// (services still on v1, and their snsiface/sqsiface interfaces, which
	// the *SNS and *SQS types implement)
	for _, c := range []struct {
		name string
		in   string
	}{{"", "0"}, {"WithContext", "1"}} {
		add(publish("sns", p(sns1+".SNS", "Publish"+c.name), Message{Topic: c.in + ".TopicArn", Key: c.in + ".MessageGroupId", Value: c.in + ".Message", Headers: c.in + ".MessageAttributes"}),
			publish("sns", p(sns1+".SNS", "PublishBatch"+c.name), Message{Topic: c.in + ".TopicArn", Key: c.in + ".PublishBatchRequestEntries[].MessageGroupId", Value: c.in + ".PublishBatchRequestEntries[].Message", Headers: c.in + ".PublishBatchRequestEntries[].MessageAttributes"}),
			publish("sqs", p(sqs1+".SQS", "SendMessage"+c.name), Message{Topic: c.in + ".QueueUrl", Key: c.in + ".MessageGroupId", Value: c.in + ".MessageBody", Headers: c.in + ".MessageAttributes"}),
			publish("sqs", p(sqs1+".SQS", "SendMessageBatch"+c.name), Message{Topic: c.in + ".QueueUrl", Key: c.in + ".Entries[].MessageGroupId", Value: c.in + ".Entries[].MessageBody", Headers: c.in + ".Entries[].MessageAttributes"}))
	}

	// AWS SDK v1 Kinesis and EventBridge, as SNS/SQS above
	for _, c := range []struct {
		name string
		in   string
	}{{"", "0"}, {"WithContext", "1"}} {
		add(publish("kinesis", p(kinesis1+".Kinesis", "PutRecord"+c.name), Message{Topic: c.in + ".StreamName", Key: c.in + ".PartitionKey", Value: c.in + ".Data"}),
			publish("kinesis", p(kinesis1+".Kinesis", "PutRecords"+c.name), Message{Topic: c.in + ".StreamName", Key: c.in + ".Records[].PartitionKey", Value: c.in + ".Records[].Data"}),
			publish("eventbridge", p(eventbr1+".EventBridge", "PutEvents"+c.name), Message{Topic: c.in + ".Entries[].EventBusName", Value: c.in + ".Entries[].Detail", EventType: c.in + ".Entries[].DetailType"}))
	}

	// Apache Pulsar: the Producer interface the client's CreateProducer
	// returns; the producer is bound to the topic of its options
	pulsarMsg := Message{Topic: "recv()0.Topic", Key: "1.Key", Value: "1.Payload", Headers: "1.Properties"}
	add(publish("pulsar", m(pulsar+".Producer", "Send"), pulsarMsg), publish("pulsar", m(pulsar+".Producer", "SendAsync"), pulsarMsg))

	// NSQ: the topic is the first argument of every publish
	add(publish("nsq", p(nsq+".Producer", "Publish"), Message{Topic: "0", Value: "1"}),
		publish("nsq", p(nsq+".Producer", "PublishAsync"), Message{Topic: "0", Value: "1"}),
		publish("nsq", p(nsq+".Producer", "MultiPublish"), Message{Topic: "0", Value: "1[]"}),
		publish("nsq", p(nsq+".Producer", "MultiPublishAsync"), Message{Topic: "0", Value: "1[]"}),
		publish("nsq", p(nsq+".Producer", "DeferredPublish"), Message{Topic: "0", Value: "2"}),
		publish("nsq", p(nsq+".Producer", "DeferredPublishAsync"), Message{Topic: "0", Value: "2"}))

	// Azure Service Bus (a Sender is bound to the queue or topic named to
	// client.NewSender) and Event Hubs (a ProducerClient to the hub named to
	// its constructor); a batch row's value is the batch the messages were
	// added to
	azMsg := Message{Topic: "recv()0", Key: "1.SessionID", Value: "1.Body", Headers: "1.ApplicationProperties", EventType: "1.Subject"}
	add(publish("servicebus", p(azsb+".Sender", "SendMessage"), azMsg),
		publish("servicebus", p(azsb+".Sender", "SendMessageBatch"), Message{Topic: "recv()0", Value: "1"}),
		publish("servicebus", p(azsb+".Sender", "SendAMQPAnnotatedMessage"), Message{Topic: "recv()0", Value: "1.Body.Data|1.Body.Value", Headers: "1.ApplicationProperties"}),
		publish("servicebus", p(azsb+".Sender", "ScheduleMessages"), Message{Topic: "recv()0", Value: "1[].Body", Headers: "1[].ApplicationProperties"}),
		publish("eventhubs", p(azeh+".ProducerClient", "SendEventDataBatch"), Message{Topic: "recv()1", Value: "1"}))

	// Dapr: the sidecar's pub/sub and state APIs, on the Client interface
	// the SDK's NewClient returns and on its gRPC implementation; a state
	// write is the store-of-record write of a Dapr service (an outbox, if
	// any, is the state store component's configuration, not code)
	for _, recv := range []func(string) string{
		func(n string) string { return m(dapr+".Client", n) },
		func(n string) string { return p(dapr+".GRPCClient", n) },
	} {
		add(publish("dapr", recv("PublishEvent"), Message{Topic: "2", Value: "3"}),
			publish("dapr", recv("PublishEventfromCustomContent"), Message{Topic: "2", Value: "3"}),
			publish("dapr", recv("PublishEvents"), Message{Topic: "2", Value: "3[]"}))
		for _, n := range []string{"SaveState", "SaveStateWithETag", "SaveBulkState", "DeleteState", "DeleteStateWithETag", "DeleteBulkState", "ExecuteStateTransaction"} {
			add(write(DaprState, recv(n)))
		}
	}

	// Apache RocketMQ: the Producer interface the client's constructors
	// return; messages are variadic *primitive.Message
	add(publish("rocketmq", m(rocketmq+".Producer", "SendSync"), Message{Topic: "1[].Topic", Value: "1[].Body"}),
		publish("rocketmq", m(rocketmq+".Producer", "SendAsync"), Message{Topic: "2[].Topic", Value: "2[].Body"}),
		publish("rocketmq", m(rocketmq+".Producer", "SendOneWay"), Message{Topic: "1[].Topic", Value: "1[].Body"}))

	// Google Cloud Pub/Sub v1 (Topic) and v2 (Publisher)
	psMsg := Message{Topic: "recv()0", Key: "1.OrderingKey", Value: "1.Data", Headers: "1.Attributes"}
	add(publish("pubsub", p(pubsub1+".Topic", "Publish"), psMsg), publish("pubsub", p(pubsub2+".Publisher", "Publish"), psMsg),
		consume("pubsub", p(pubsub1+".Subscription", "Receive"), 1), consume("pubsub", p(pubsub2+".Subscriber", "Receive"), 1))

	// go-redis v8 and v9: methods live on the unexported cmdable and on the
	// Cmdable interfaces (v9 splits them into PubSubCmdable / StreamCmdable).
	redisPub := Message{Topic: "1", Value: "2"}
	redisX := Message{Topic: "1.Stream", Value: "1.Values", Key: "1.ID"}
	add(publish("redis", m(redis8+".cmdable", "Publish"), redisPub), publish("redis", m(redis8+".Cmdable", "Publish"), redisPub),
		publish("redis", m(redis8+".cmdable", "XAdd"), redisX), publish("redis", m(redis8+".Cmdable", "XAdd"), redisX),
		publish("redis", m(redis9+".cmdable", "Publish"), redisPub), publish("redis", m(redis9+".PubSubCmdable", "Publish"), redisPub),
		publish("redis", m(redis9+".cmdable", "SPublish"), redisPub), publish("redis", m(redis9+".PubSubCmdable", "SPublish"), redisPub),
		publish("redis", m(redis9+".cmdable", "XAdd"), redisX), publish("redis", m(redis9+".StreamCmdable", "XAdd"), redisX))
	// go-redis v7: no context argument
	redis7Pub, redis7X := Message{Topic: "0", Value: "1"}, Message{Topic: "0.Stream", Value: "0.Values", Key: "0.ID"}
	add(publish("redis", m(redis7+".cmdable", "Publish"), redis7Pub), publish("redis", m(redis7+".Cmdable", "Publish"), redis7Pub),
		publish("redis", m(redis7+".cmdable", "XAdd"), redis7X), publish("redis", m(redis7+".Cmdable", "XAdd"), redis7X))
	for _, n := range []string{"Set", "HSet", "Del", "SetEx", "SetNX", "Expire"} {
		n8 := n
		if n == "SetEx" {
			n8 = "SetEX" // v8's spelling; v9 renamed it
		}
		add(cache(m(redis8+".cmdable", n8)), cache(m(redis8+".Cmdable", n8)), cache(m(redis9+".cmdable", n)))
	}
	add(cache(m(redis9+".StringCmdable", "Set")), cache(m(redis9+".HashCmdable", "HSet")), cache(m(redis9+".GenericCmdable", "Del")))
	// Redis lists as work queues: a push is a publish where the same
	// package pops a list (the queue wrapper both pushes and pops).
	redisL := Message{Topic: "1", Value: "2"}
	for _, recv := range []string{redis8 + ".cmdable", redis8 + ".Cmdable", redis9 + ".cmdable", redis9 + ".ListCmdable"} {
		for _, n := range []string{"LPush", "RPush", "LPushX", "RPushX"} {
			e := publish("redis-list", m(recv, n), redisL)
			e.ListPush = true
			add(e)
		}
		for _, n := range []string{"BLPop", "BRPop", "BRPopLPush", "BLMove", "LPop", "RPop", "RPopLPush", "LMove", "LPopCount", "RPopCount"} {
			add(Entry{Name: m(recv, n), Kind: Dequeue, SQL: NoArg, Func: NoArg, Handle: NoArg})
		}
	}
	// Redis sorted sets as delay or priority queues (the score is the due
	// time): ZADD is a publish where the package pops the set (ZPOPMIN and
	// alike); elsewhere a sorted set is data (a leaderboard, an index).
	for _, recv := range []string{redis8 + ".cmdable", redis8 + ".Cmdable", redis9 + ".cmdable", redis9 + ".SortedSetCmdable"} {
		for _, n := range []string{"ZAdd", "ZAddNX", "ZAddArgs"} {
			e := publish("redis-zset", m(recv, n), Message{Topic: "1", Value: "2"})
			e.ListPush = true
			add(e)
		}
		for _, n := range []string{"ZPopMin", "ZPopMax", "BZPopMin", "BZPopMax"} {
			add(Entry{Name: m(recv, n), Kind: Dequeue, SQL: NoArg, Func: NoArg, Handle: NoArg})
		}
	}

	// Clients that take the command as a string: redigo's Do and Send
	// (pipelined, run at the next Flush or Do), radix's Cmd and FlatCmd (the
	// action a Pool's or Conn's Do runs). A call is a publish only when its
	// command is PUBLISH, SPUBLISH or XADD, or a list push where the package
	// also pops a list (catalog.CommandEffect). Fix does not rewrite them.
	commandRow := func(name string, cmd int) Entry {
		e := publish("redis", name, Message{Topic: strconv.Itoa(cmd + 1), Value: strconv.Itoa(cmd + 2)})
		e.Command = true
		return e
	}
	for _, pkg := range []string{redigo, redigoOld} {
		add(commandRow(m(pkg+".Conn", "Do"), 0), commandRow(m(pkg+".Conn", "Send"), 0))
	}
	add(commandRow(m(redigo+".ConnWithContext", "DoContext"), 1), commandRow(redigo+".DoContext", 2))
	for _, pkg := range []string{radix3, radix4} {
		add(commandRow(pkg+".Cmd", 1), commandRow(pkg+".FlatCmd", 1))
	}

	// rueidis: the command is built by a chain that starts with the
	// Builder method named after it (client.B().Publish()...Build());
	// CommandClient's Do and DoMulti run it (catalog.BuilderCommand).
	for _, n := range []string{"Do", "DoMulti"} {
		e := publish("redis", m(rueidis+".CommandClient", n), Message{Topic: "1", Value: "1"}) // the built command carries both
		e.Command = true
		add(e)
	}

	// GoFrame's gredis (g.Redis()): PUBLISH through its pub/sub group, list
	// pushes and pops through its list group (a queue where the package
	// pops), and Do with the command as a string.
	add(publish("redis", m(gfredis+".IGroupPubSub", "Publish"), Message{Topic: "1", Value: "2"}))
	for _, n := range []string{"LPush", "RPush", "LPushX", "RPushX"} {
		e := publish("redis-list", m(gfredis+".IGroupList", n), redisL)
		e.ListPush = true
		add(e)
	}
	for _, n := range []string{"BLPop", "BRPop", "BRPopLPush", "LPop", "RPop", "RPopLPush"} {
		add(Entry{Name: m(gfredis+".IGroupList", n), Kind: Dequeue, SQL: NoArg, Func: NoArg, Handle: NoArg})
	}
	for _, name := range []string{p(gfredis+".Redis", "Do"), m(gfredis+".AdapterOperation", "Do"), m(gfredis+".Conn", "Do")} {
		e := publish("redis", name, Message{Topic: "2", Value: "3"})
		e.Command = true
		add(e)
	}

	// go-micro's events and broker: the stream or broker publishes through
	// the backend it was built with (NATS JetStream, Kafka, RabbitMQ, ...);
	// events.Publish uses the default stream. Fix does not rewrite them.
	add(publish("go-micro", m(microEv+".Stream", "Publish"), Message{Topic: "0", Value: "1"}),
		publish("go-micro", microEv+".Publish", Message{Topic: "0", Value: "1"}),
		publish("go-micro", m(microBr+".Broker", "Publish"), Message{Topic: "0", Value: "1.Body", Headers: "1.Header"}))

	// go-micro's store as the store of record (a service's state in NATS
	// KV or Redis behind store.Store): Write and Delete.
	add(write(KV, m(microStore+".Store", "Write")), write(KV, m(microStore+".Store", "Delete")))

	// An LDAP directory as the store of record (an identity service's users
	// and groups): adds, deletes, modifications and password changes, on
	// a connection or through the Client interface.
	for _, n := range []string{"Add", "Del", "Modify", "ModifyDN", "ModifyWithResult", "PasswordModify"} {
		add(write(LDAP, p(ldap3+".Conn", n)), write(LDAP, m(ldap3+".Client", n)))
	}

	// AMQP 1.0 (Azure's go-amqp: Service Bus, Event Hubs, ActiveMQ
	// Artemis, Qpid): a Sender sends to the target its link was opened on.
	add(publish("amqp1", p(goamqp+".Sender", "Send"), Message{Topic: "recv()1", Value: "1.Data"}))

	// MQTT v5 (eclipse paho.golang): the client and autopaho's
	// reconnecting manager; PublishViaQueue hands it to the manager's queue.
	add(publish("mqtt", p(paho5+".Client", "Publish"), Message{Topic: "1.Topic", Value: "1.Payload"}),
		publish("mqtt", p(autopaho+".ConnectionManager", "Publish"), Message{Topic: "1.Topic", Value: "1.Payload"}),
		publish("mqtt", p(autopaho+".ConnectionManager", "PublishViaQueue"), Message{Topic: "1.Topic", Value: "1.Payload"}))

	// River, a job queue in PostgreSQL: Insert commits the job on the
	// client's own pool, apart from the caller's write (a publish, as an
	// asynq enqueue is); InsertTx writes it in the caller's transaction,
	// which is the outbox pattern itself (an outbox insert on argument 1).
	add(publish("river", p(river+".Client", "Insert"), Message{Topic: "2.Queue", Value: "1"}),
		publish("river", p(river+".Client", "InsertMany"), Message{Topic: "1[].InsertOpts.Queue", Value: "1[].Args"}),
		publish("river", p(river+".Client", "InsertManyFast"), Message{Topic: "1[].InsertOpts.Queue", Value: "1[].Args"}))
	for _, n := range []string{"InsertTx", "InsertManyTx", "InsertManyFastTx"} {
		add(Entry{Name: p(river+".Client", n), Kind: OutboxInsert, Store: SQL, SQL: NoArg, Func: NoArg, Handle: 1})
	}

	// Watermill, STAN, asynq
	add(publish("watermill", m(watermill+".Publisher", "Publish"), Message{Topic: "0", Value: "1[].Payload", Headers: "1[].Metadata"}),
		publish("stan", m(stan+".Conn", "Publish"), Message{Topic: "0", Value: "1"}),
		publish("stan", m(stan+".Conn", "PublishAsync"), Message{Topic: "0", Value: "1"}),
		publish("asynq", p(asynq+".Client", "Enqueue"), Message{Topic: "0()0", Value: "0()1", EventType: "0()0"}),
		publish("asynq", p(asynq+".Client", "EnqueueContext"), Message{Topic: "1()0", Value: "1()1", EventType: "1()0"}),
		// watermill's CQRS buses marshal the event or command and publish
		// it on the configured Publisher; the topic is generated from the
		// type of argument 1 (no fix rewrites these calls)
		publish("watermill", m(wmcqrs+".EventBus", "Publish"), Message{Topic: "1", Value: "1"}),
		publish("watermill", m(wmcqrs+".CommandBus", "Send"), Message{Topic: "1", Value: "1"}),
		// CloudEvents: the client hands the event to the protocol it was
		// built with (kafka_sarama, AMQP, NATS, or HTTP to an event broker's
		// ingress); the topic is the sender's (no fix rewrites these calls)
		publish("cloudevents", m(cloudev+".Client", "Send"), Message{Topic: "recv()0", Value: "1"}),
		publish("cloudevents", m(cloudev+".Client", "Request"), Message{Topic: "recv()0", Value: "1"}),
		consume("watermill", p(watermill+".Router", "AddHandler"), 5),
		consume("watermill", p(watermill+".Router", "AddNoPublisherHandler"), 3),
		consume("stan", m(stan+".Conn", "Subscribe"), 1), consume("stan", m(stan+".Conn", "QueueSubscribe"), 2),
		consume("asynq", p(asynq+".ServeMux", "HandleFunc"), 1))

	// MQTT (eclipse paho v1: the error comes later, from the returned
	// Token) and the machinery v1 task queue (a Signature names the task)
	add(publish("mqtt", m(paho+".Client", "Publish"), Message{Topic: "0", Value: "3"}),
		consume("mqtt", m(paho+".Client", "Subscribe"), 2),
		publish("machinery", p(machinery+".Server", "SendTask"), Message{Topic: "0.Name", Value: "0.Args", EventType: "0.Name"}),
		publish("machinery", p(machinery+".Server", "SendTaskWithContext"), Message{Topic: "1.Name", Value: "1.Args", EventType: "1.Name"}),
		publish("machinery", p(machinery+".Server", "SendGroup"), Message{Topic: "0.GroupUUID", Value: "0.Tasks"}),
		publish("machinery", p(machinery+".Server", "SendGroupWithContext"), Message{Topic: "1.GroupUUID", Value: "1.Tasks"}),
		consume("machinery", p(machinery+".Server", "RegisterTask"), 1))

	// Routers and schedulers: a closure handed to them is a handler or a
	// job, run later on a path of its own (registering is not running).
	// Functions with a func-typed parameter are also read from their
	// bodies; these rows cover named handler types and interfaces.
	for _, v := range routes {
		for _, recv := range v.recvs {
			for _, meth := range v.methods {
				add(later(recv+"."+meth.name, meth.fn))
			}
		}
	}
	add(later("net/http.HandleFunc", 1), later(p("net/http.ServeMux", "HandleFunc"), 1),
		later("time.AfterFunc", 1), later("context.AfterFunc", 1),
		later(p("github.com/robfig/cron/v3.Cron", "AddFunc"), 1), later(p("github.com/robfig/cron.Cron", "AddFunc"), 1),
		later(p("github.com/go-co-op/gocron.Scheduler", "Do"), 0), later("github.com/go-co-op/gocron/v2.NewTask", 0))
	return r
}()

type routeMethod struct {
	name string
	fn   int // index of the first handler argument
}

// verbs are a router's per-method registrations: (path, handler...).
func verbs(names ...string) []routeMethod {
	out := make([]routeMethod, len(names))
	for i, n := range names {
		out[i] = routeMethod{n, 1}
	}
	return out
}

// routes: receivers (as in row names) and their registration methods.
var routes = []struct {
	recvs   []string
	methods []routeMethod
}{
	{ // gin: RouterGroup (Engine embeds it) and the IRoutes interface
		[]string{"(*github.com/gin-gonic/gin.RouterGroup)", "(github.com/gin-gonic/gin.IRoutes)"},
		append(verbs("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "Any"),
			routeMethod{"Handle", 2}, routeMethod{"Match", 2}, routeMethod{"Use", 0}),
	},
	{ // echo v4: Echo and Group
		[]string{"(*github.com/labstack/echo/v4.Echo)", "(*github.com/labstack/echo/v4.Group)"},
		append(verbs("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE", "Any"),
			routeMethod{"Add", 2}, routeMethod{"Match", 2}, routeMethod{"Use", 0}),
	},
	{ // chi v5 and v1: Mux and the Router interface (Route and Group run their function at once)
		[]string{"(*github.com/go-chi/chi/v5.Mux)", "(github.com/go-chi/chi/v5.Router)", "(*github.com/go-chi/chi.Mux)", "(github.com/go-chi/chi.Router)"},
		append(verbs("Get", "Post", "Put", "Patch", "Delete", "Head", "Options", "Connect", "Trace", "Handle", "HandleFunc"),
			routeMethod{"Method", 2}, routeMethod{"MethodFunc", 2}, routeMethod{"NotFound", 0}, routeMethod{"MethodNotAllowed", 0}),
	},
	{ // fiber v2: App and the Router interface
		[]string{"(*github.com/gofiber/fiber/v2.App)", "(github.com/gofiber/fiber/v2.Router)"},
		append(verbs("Get", "Post", "Put", "Patch", "Delete", "Head", "Options", "Connect", "Trace", "All"),
			routeMethod{"Add", 2}, routeMethod{"Use", 0}),
	},
	{ // gorilla/mux
		[]string{"(*github.com/gorilla/mux.Router)"},
		[]routeMethod{{"HandleFunc", 1}},
	},
	{
		[]string{"(*github.com/gorilla/mux.Route)"},
		[]routeMethod{{"HandlerFunc", 0}},
	},
}

// MiddlewareAPI is how a router's middleware runs the handlers of the
// routes it is installed on: inside its Next call (gin's c.Next()), so a
// middleware that publishes after Next publishes after whatever the
// route's handler wrote. Use installs middlewares on the router it is
// called on (every argument), Group opens a group with the middlewares
// from argument 1 on.
type MiddlewareAPI struct {
	Next   string   // full name of the call that runs the rest of the chain
	Use    []string // full names of the methods that install middlewares
	Group  []string // full names of the methods that open a group
	Engine string   // the router type whose Use applies to every route of the program
}

// Middlewares lists the routers whose middlewares are followed into the
// route handlers they run.
var Middlewares = []MiddlewareAPI{
	{
		Next:   "(*github.com/gin-gonic/gin.Context).Next",
		Use:    []string{"(*github.com/gin-gonic/gin.Engine).Use", "(*github.com/gin-gonic/gin.RouterGroup).Use", "(github.com/gin-gonic/gin.IRoutes).Use"},
		Group:  []string{"(*github.com/gin-gonic/gin.RouterGroup).Group", "(github.com/gin-gonic/gin.IRouter).Group"},
		Engine: "github.com/gin-gonic/gin.Engine",
	},
	{
		Next:   "(*github.com/gofiber/fiber/v2.Ctx).Next",
		Use:    []string{"(*github.com/gofiber/fiber/v2.App).Use", "(*github.com/gofiber/fiber/v2.Group).Use", "(github.com/gofiber/fiber/v2.Router).Use"},
		Group:  []string{"(*github.com/gofiber/fiber/v2.App).Group", "(*github.com/gofiber/fiber/v2.Group).Group", "(github.com/gofiber/fiber/v2.Router).Group"},
		Engine: "github.com/gofiber/fiber/v2.App",
	},
}

// EventBusAPI is an in-process event bus whose listeners are chosen by
// the event: a Subscribe registers a listener for the events of its Event
// argument's type (gof's eventbus.Subscribe(events.X{}, h.OnX)) or, where
// that argument is a constant string, for that topic; a Dispatch runs the
// listeners registered for its Event argument's type or topic, before it
// returns or, for those registered by an Async subscribe, in goroutines.
// A dispatch is the publish of its listeners that reach a broker.
type EventBusAPI struct {
	Subscribe []BusSubscribe
	Dispatch  []string // full names of the calls that run the listeners
	Event     int      // the dispatch's event or topic argument
}

// BusSubscribe is one way to register a listener.
type BusSubscribe struct {
	Name            string // full name
	Event, Listener int    // argument indexes
	Async           bool   // the dispatch runs the listener in a goroutine
}

// EventBuses lists the event buses whose listeners are followed.
var EventBuses = []EventBusAPI{
	{
		// github.com/ixre/gof: listeners keyed by the event's type name
		Subscribe: []BusSubscribe{
			{Name: "github.com/ixre/gof/domain/eventbus.Subscribe", Event: 0, Listener: 1},
			{Name: "github.com/ixre/gof/domain/eventbus.SubscribeAsync", Event: 0, Listener: 1, Async: true},
			{Name: "(*github.com/ixre/gof/domain/eventbus.eventBus).Subscribe", Event: 0, Listener: 1},
			{Name: "(*github.com/ixre/gof/domain/eventbus.eventBus).SubscribeAsync", Event: 0, Listener: 1, Async: true},
		},
		Dispatch: []string{"github.com/ixre/gof/domain/eventbus.Dispatch", "(*github.com/ixre/gof/domain/eventbus.eventBus).Dispatch"},
	},
	{
		// github.com/asaskevich/EventBus: listeners keyed by a topic string
		Subscribe: []BusSubscribe{
			{Name: "(*github.com/asaskevich/EventBus.EventBus).Subscribe", Event: 0, Listener: 1},
			{Name: "(*github.com/asaskevich/EventBus.EventBus).SubscribeOnce", Event: 0, Listener: 1},
			{Name: "(*github.com/asaskevich/EventBus.EventBus).SubscribeAsync", Event: 0, Listener: 1, Async: true},
			{Name: "(*github.com/asaskevich/EventBus.EventBus).SubscribeOnceAsync", Event: 0, Listener: 1, Async: true},
			{Name: "(github.com/asaskevich/EventBus.BusSubscriber).Subscribe", Event: 0, Listener: 1},
			{Name: "(github.com/asaskevich/EventBus.BusSubscriber).SubscribeOnce", Event: 0, Listener: 1},
			{Name: "(github.com/asaskevich/EventBus.BusSubscriber).SubscribeAsync", Event: 0, Listener: 1, Async: true},
			{Name: "(github.com/asaskevich/EventBus.BusSubscriber).SubscribeOnceAsync", Event: 0, Listener: 1, Async: true},
		},
		Dispatch: []string{"(*github.com/asaskevich/EventBus.EventBus).Publish", "(github.com/asaskevich/EventBus.BusPublisher).Publish"},
	},
}

// APINames lists the full names the Middlewares and EventBuses tables
// match calls by (checked against the real libraries like the rows).
func APINames() []string {
	var out []string
	for _, m := range Middlewares {
		out = append(out, m.Next)
		out = append(out, m.Use...)
		out = append(out, m.Group...)
	}
	for _, b := range EventBuses {
		for _, s := range b.Subscribe {
			out = append(out, s.Name)
		}
		out = append(out, b.Dispatch...)
	}
	return out
}
