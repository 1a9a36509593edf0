// Package catalog owns the data outboxify's analyzer matches calls against:
// every database write, transaction boundary, broker publish, outbox insert and
// broker consumer it knows, keyed by the full name go/types gives the callee
// ((*types.Func).FullName of the declaring method, e.g.
// "(*database/sql.Tx).ExecContext", or "(github.com/IBM/sarama.SyncProducer).SendMessage"
// for a method declared by an interface).
//
// Rows are data, not code: the analyzer decides the shapes, `fix` reads the
// Message mapping of a publish row to build an outbox.Message from the call.
//
// # Argument paths
//
// Message fields and handle positions name parts of a call with a small path
// language, evaluated by whoever rewrites the call:
//
//	"0"              the first argument (arguments count from 0, the receiver excluded)
//	"1.Topic"        field Topic of argument 1 (through & and composite literals)
//	"1[].Key"        field Key of each element of argument 1 (a slice or the variadic tail)
//	"recv.Topic"     field Topic of the receiver's configuration (kafka-go Writer)
//	"recv()0"        argument 0 of the call that built the receiver (pubsub client.Topic(id))
//	"recv()0.Topic"  field Topic of that argument (pulsar client.CreateProducer(opts))
//	"0()1"           argument 1 of the call that built argument 0 (asynq.NewTask(type, payload))
//	"sent.Topic"     field of the value sent on the channel a Send row returns
//	"a|b"            the first of the alternatives that is present
//
// An empty path means the client has no such part.
package catalog
