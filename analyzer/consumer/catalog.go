package consumer

import (
	"go/ast"
	"go/types"
	"regexp"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// handlerShape says where a consumer entry point's handler is.
type handlerShape int

const (
	// shapeCallback: the handler is argument Arg (a closure, a function or
	// method value, or a call that returns one).
	shapeCallback handlerShape = iota
	// shapeHandlerType: argument Arg is a value whose method (handlerMethods)
	// is the handler (sarama's ConsumerGroupHandler.ConsumeClaim).
	shapeHandlerType
	// shapePull: the call returns messages; the handler is the code after
	// the call in the enclosing function.
	shapePull
)

type entryPoint struct {
	Shape handlerShape
	Arg   int
}

// handlerMethods are the methods of handler types that hold the handling
// code (sarama's ConsumerGroupHandler, asynq's Handler, watermill's
// NoPublishHandlerFunc is a func and needs none).
var handlerMethods = []string{"ConsumeClaim", "ProcessTask", "HandleMessage", "Handle"}

// entryPointOf reports whether fn is a consumer entry point of the catalog
// (Kind Consume) and where its handler is.
func entryPointOf(cat *catalog.Catalog, info *types.Info, call *ast.CallExpr, fn *types.Func) (entryPoint, bool) {
	e := cat.Match(fn)
	if e == nil || e.Kind != catalog.Consume {
		return entryPoint{}, false
	}
	if e.Func == catalog.NoArg {
		return entryPoint{Shape: shapePull}, true
	}
	if e.Func < len(call.Args) {
		if t := info.TypeOf(call.Args[e.Func]); t != nil {
			if _, isFunc := t.Underlying().(*types.Signature); !isFunc {
				return entryPoint{Shape: shapeHandlerType, Arg: e.Func}, true
			}
		}
	}
	return entryPoint{Shape: shapeCallback, Arg: e.Func}, true
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

var (
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

// externalWords are the words (catalog.Words: whole words, so "payload"
// is not "pay") of names (functions, types, packages, URLs, receiver
// expressions) of payment and email clients.
var externalWords = map[string]bool{
	"pay": true, "pays": true, "payment": true, "payments": true, "payer": true, "payout": true, "payouts": true,
	"charge": true, "charges": true, "billing": true, "invoice": true, "invoices": true, "refund": true, "refunds": true,
	"stripe": true, "braintree": true, "adyen": true, "paypal": true,
	"mail": true, "mails": true, "email": true, "emails": true, "mailer": true, "smtp": true, "sendgrid": true,
	"mailgun": true, "postmark": true, "twilio": true, "sms": true,
	"notif": true, "notify": true, "notifier": true, "notification": true, "notifications": true,
}

func externalLike(s string) bool { return catalog.HasWord(s, externalWords) }

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
