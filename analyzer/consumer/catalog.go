package consumer

import "regexp"

// handlerShape says where a consumer entry point's handler is.
type handlerShape int

const (
	// shapeCallback: the handler is argument Arg (a closure, a function or
	// method value, or a call that returns one).
	shapeCallback handlerShape = iota
	// shapeHandlerType: argument Arg is a value whose Method is the handler
	// (sarama's ConsumerGroupHandler.ConsumeClaim).
	shapeHandlerType
	// shapePull: the call returns messages; the handler is the code after
	// the call in the enclosing function.
	shapePull
)

type entryPoint struct {
	Shape  handlerShape
	Arg    int
	Method string
}

// entryPoints are the consumer APIs, keyed by (*types.Func).FullName().
// Interface methods are keyed by the interface that declares them.
var entryPoints = map[string]entryPoint{
	"(*github.com/segmentio/kafka-go.Reader).FetchMessage": {Shape: shapePull},
	"(*github.com/segmentio/kafka-go.Reader).ReadMessage":  {Shape: shapePull},

	"(github.com/IBM/sarama.ConsumerGroup).Consume":     {Shape: shapeHandlerType, Arg: 2, Method: "ConsumeClaim"},
	"(github.com/Shopify/sarama.ConsumerGroup).Consume": {Shape: shapeHandlerType, Arg: 2, Method: "ConsumeClaim"},

	"(*github.com/twmb/franz-go/pkg/kgo.Client).PollFetches": {Shape: shapePull},
	"(*github.com/twmb/franz-go/pkg/kgo.Client).PollRecords": {Shape: shapePull},

	"(*github.com/nats-io/nats.go.Conn).Subscribe":             {Shape: shapeCallback, Arg: 1},
	"(*github.com/nats-io/nats.go.Conn).QueueSubscribe":        {Shape: shapeCallback, Arg: 2},
	"(github.com/nats-io/nats.go.JetStream).Subscribe":         {Shape: shapeCallback, Arg: 1},
	"(github.com/nats-io/nats.go.JetStream).QueueSubscribe":    {Shape: shapeCallback, Arg: 2},
	"(*github.com/nats-io/nats.go.Subscription).Fetch":         {Shape: shapePull},
	"(*github.com/nats-io/nats.go.Subscription).NextMsg":       {Shape: shapePull},
	"(github.com/nats-io/nats.go/jetstream.Consumer).Consume":  {Shape: shapeCallback, Arg: 0},
	"(github.com/nats-io/nats.go/jetstream.Consumer).Messages": {Shape: shapePull},
	"(github.com/nats-io/nats.go/jetstream.Consumer).Fetch":    {Shape: shapePull},

	"(*github.com/rabbitmq/amqp091-go.Channel).Consume":            {Shape: shapePull},
	"(*github.com/rabbitmq/amqp091-go.Channel).ConsumeWithContext": {Shape: shapePull},
	"(*github.com/streadway/amqp.Channel).Consume":                 {Shape: shapePull},

	"(*github.com/aws/aws-sdk-go-v2/service/sqs.Client).ReceiveMessage": {Shape: shapePull},

	"(*cloud.google.com/go/pubsub.Subscription).Receive":  {Shape: shapeCallback, Arg: 1},
	"(*cloud.google.com/go/pubsub/v2.Subscriber).Receive": {Shape: shapeCallback, Arg: 1},
}

// brokerPackages are the import paths (or prefixes) whose message types carry
// the message id a handler should key its side effects on.
var brokerPackages = []string{
	"github.com/segmentio/kafka-go",
	"github.com/IBM/sarama",
	"github.com/Shopify/sarama",
	"github.com/twmb/franz-go/pkg/kgo",
	"github.com/nats-io/nats.go",
	"github.com/rabbitmq/amqp091-go",
	"github.com/streadway/amqp",
	"github.com/aws/aws-sdk-go-v2/service/sqs",
	"cloud.google.com/go/pubsub",
}

// idFields are fields or methods of a broker message that hold (or lead to)
// the message id: the broker's own id or the headers carrying outbox-id.
var idFields = map[string]bool{
	"ID": true, "Id": true, "MessageId": true, "MessageID": true,
	"Header": true, "Headers": true, "Attributes": true, "MessageAttributes": true,
}

// idHeader matches string constants naming the message id header.
var idHeader = regexp.MustCompile(`(?i)^(outbox-id|nats-msg-id|message-?id|x-message-id)$`)

// idempotencyHeader matches the conventional idempotency header name.
var idempotencyHeader = regexp.MustCompile(`(?i)idempotency`)

// dbWrites are DB write calls, keyed by full name. The value is the index of
// the SQL text argument, or -1 when the call carries no SQL text.
var dbWrites = map[string]int{
	"(*database/sql.DB).Exec":          0,
	"(*database/sql.DB).ExecContext":   1,
	"(*database/sql.Tx).Exec":          0,
	"(*database/sql.Tx).ExecContext":   1,
	"(*database/sql.Conn).ExecContext": 1,
	"(*database/sql.Stmt).Exec":        -1,
	"(*database/sql.Stmt).ExecContext": -1,

	"(*github.com/jackc/pgx/v5.Conn).Exec":              1,
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).Exec":      1,
	"(*github.com/jackc/pgx/v5/pgxpool.Conn).Exec":      1,
	"(*github.com/jackc/pgx/v5/pgxpool.Tx).Exec":        1,
	"(github.com/jackc/pgx/v5.Tx).Exec":                 1,
	"(*github.com/jackc/pgx/v5.Conn).SendBatch":         -1,
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).SendBatch": -1,
	"(github.com/jackc/pgx/v5.Tx).SendBatch":            -1,
	"(*github.com/jackc/pgx/v5.Conn).CopyFrom":          -1,
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).CopyFrom":  -1,
	"(github.com/jackc/pgx/v5.Tx).CopyFrom":             -1,
	"(*github.com/jackc/pgx/v4.Conn).Exec":              1,
	"(*github.com/jackc/pgx/v4/pgxpool.Pool).Exec":      1,
	"(github.com/jackc/pgx/v4.Tx).Exec":                 1,

	"(*github.com/jmoiron/sqlx.DB).NamedExec":        0,
	"(*github.com/jmoiron/sqlx.DB).NamedExecContext": 1,
	"(*github.com/jmoiron/sqlx.DB).MustExec":         0,
	"(*github.com/jmoiron/sqlx.DB).MustExecContext":  1,
	"(*github.com/jmoiron/sqlx.Tx).NamedExec":        0,
	"(*github.com/jmoiron/sqlx.Tx).NamedExecContext": 1,
	"(*github.com/jmoiron/sqlx.Tx).MustExec":         0,
	"(*github.com/jmoiron/sqlx.Tx).MustExecContext":  1,

	"(*gorm.io/gorm.DB).Create":        -1,
	"(*gorm.io/gorm.DB).Save":          -1,
	"(*gorm.io/gorm.DB).Update":        -1,
	"(*gorm.io/gorm.DB).Updates":       -1,
	"(*gorm.io/gorm.DB).UpdateColumn":  -1,
	"(*gorm.io/gorm.DB).UpdateColumns": -1,
	"(*gorm.io/gorm.DB).Delete":        -1,
	"(*gorm.io/gorm.DB).FirstOrCreate": -1,
	"(*gorm.io/gorm.DB).Exec":          0,
}

// dmlQueries are query calls that write when their SQL text is DML
// (INSERT ... RETURNING, sqlc's :one inserts). Value: SQL argument index.
var dmlQueries = map[string]int{
	"(*database/sql.DB).QueryRowContext":               1,
	"(*database/sql.DB).QueryContext":                  1,
	"(*database/sql.DB).QueryRow":                      0,
	"(*database/sql.DB).Query":                         0,
	"(*database/sql.Tx).QueryRowContext":               1,
	"(*database/sql.Tx).QueryContext":                  1,
	"(*database/sql.Tx).QueryRow":                      0,
	"(*database/sql.Tx).Query":                         0,
	"(*github.com/jackc/pgx/v5.Conn).QueryRow":         1,
	"(*github.com/jackc/pgx/v5/pgxpool.Pool).QueryRow": 1,
	"(github.com/jackc/pgx/v5.Tx).QueryRow":            1,
}

var (
	dmlSQL = regexp.MustCompile(`(?is)^\s*(WITH\b.*\b)?(INSERT|UPDATE|DELETE|MERGE|REPLACE|UPSERT)\b`)
	// idempotentSQL: the write is an upsert or otherwise safe to repeat.
	idempotentSQL = regexp.MustCompile(`(?is)\bON\s+CONFLICT\b|\bON\s+DUPLICATE\s+KEY\b|^\s*INSERT\s+IGNORE\b|^\s*DELETE\b|^\s*UPDATE\b.*\bWHERE\b.*\bversion\s*<`)
	// inboxSQL: the write records the message in the inbox table.
	inboxSQL = regexp.MustCompile("(?is)\\bINSERT\\s+(IGNORE\\s+)?INTO\\s+[`\"]?(\\w+[`\"]?\\.[`\"]?)?inbox[`\"]?[\\s(]")
)

// externalCalls are calls with side effects outside the database that are
// always treated as external APIs.
var externalCalls = map[string]bool{
	"net/smtp.SendMail":       true,
	"(*net/smtp.Client).Mail": true,
	"(*net/smtp.Client).Data": true,
}

// httpCalls are net/http calls that are external APIs when they are reached
// from payment- or email-like code (see externalLike).
var httpCalls = map[string]bool{
	"(*net/http.Client).Do":       true,
	"(*net/http.Client).Post":     true,
	"(*net/http.Client).PostForm": true,
	"net/http.Post":               true,
	"net/http.PostForm":           true,
}

// externalLike matches names (functions, types, packages, URLs, receiver
// expressions) of payment and email clients.
var externalLike = regexp.MustCompile(`(?i)pay|charge|billing|invoice|refund|stripe|braintree|adyen|paypal|mail|smtp|sendgrid|mailgun|postmark|twilio|sms|notif`)

// externalSDKs are import path prefixes of payment/email SDKs: any call into
// them from a handler is an external call.
var externalSDKs = []string{
	"github.com/stripe/stripe-go",
	"github.com/sendgrid/sendgrid-go",
	"github.com/mailgun/mailgun-go",
	"github.com/twilio/twilio-go",
	"github.com/braintree-go/braintree-go",
	"github.com/aws/aws-sdk-go-v2/service/ses",
	"github.com/aws/aws-sdk-go-v2/service/sesv2",
}
