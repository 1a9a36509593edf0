package generate

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/mod/modfile"
)

// MissingRequirements lists the import paths of the generated Go files that
// no requirement in the module's go.mod provides (nor the standard library
// or the module itself): `go get` them before building. Generation does not
// edit go.mod; the go command resolves versions.
func (cs *Changeset) MissingRequirements() ([]string, error) {
	data, err := os.ReadFile(filepath.Join(cs.Root, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("read go.mod: %w", err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return nil, fmt.Errorf("parse go.mod: %w", err)
	}
	provided := []string{cs.Config.Module}
	for _, r := range mf.Require {
		provided = append(provided, r.Mod.Path)
	}
	imports, err := cs.ServiceImports()
	if err != nil {
		return nil, err
	}
	missing := map[string]bool{}
	for _, p := range imports {
		covered := false
		for _, m := range provided {
			if p == m || strings.HasPrefix(p, m+"/") {
				covered = true
				break
			}
		}
		if !covered {
			missing[p] = true
		}
	}
	out := make([]string, 0, len(missing))
	for p := range missing {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// ServiceImports lists, sorted, the non-standard import paths of the Go
// files this changeset leaves in the service's own module (not the relay's
// module, not retired or removed files), the module's own packages left out.
func (cs *Changeset) ServiceImports() ([]string, error) {
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, ch := range cs.Changes {
		if !strings.HasSuffix(ch.Path, ".go") || cs.InRelayModule(ch.Path) || ch.Component == "retired" || ch.Action == Remove {
			continue
		}
		f, err := parser.ParseFile(fset, ch.Path, ch.New, parser.ImportsOnly)
		if err != nil {
			return nil, fmt.Errorf("parse generated %s: %w", ch.Path, err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			first, _, _ := strings.Cut(p, "/")
			if !strings.Contains(first, ".") || p == cs.Config.Module || strings.HasPrefix(p, cs.Config.Module+"/") {
				continue // standard library, or the module itself
			}
			seen[p] = true
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// InRelayModule reports whether a generated file (slash path relative to the
// module root) belongs to the relay's own nested module.
func (cs *Changeset) InRelayModule(p string) bool {
	d := cs.Config.RelayModuleDir
	return d != "" && d != "." && strings.HasPrefix(p, d+"/")
}

// floors are the oldest versions of the modules service-side generated code
// calls that have every API it uses. Each was found by building and vetting
// the rendered code against it and the version before it (the
// testdata/floor* modules keep them built: TestWriterAtClientFloors,
// TestInboxGlueAtClientFloors).
var floors = map[string]string{
	// Outbox writers and the inbox core.
	"gorm.io/gorm":            "v1.20.0", // DB.WithContext
	"github.com/jmoiron/sqlx": "v1.2.0",  // Tx.ExecContext
	"github.com/jackc/pgx/v4": "v4.0.0",
	"github.com/jackc/pgx/v5": "v5.0.0",

	// The inbox's consumer glue (templates/files/inbox/consumer*.go.tmpl);
	// below its floor only the inbox core is generated.
	// client_golang: the counters and gauges the glue uses are older, but
	// v0.9.2 is the first with a go.mod; before it the go command resolves
	// its dependencies at their newest, which require a newer client_golang.
	"github.com/prometheus/client_golang": "v0.9.2",
	// kafka-go: Writer.Topic is v0.4.1, but a Writer without a Topic sends
	// each message to its own Message.Topic (how the glue dead-letters to
	// topic+DeadLetterSuffix) only from v0.4.9.
	"github.com/segmentio/kafka-go": "v0.4.9",
	"github.com/twmb/franz-go":      "v0.11.1", // Fetches.Records (IsClientClosed and CommitRecords are v0.11.0)
	"github.com/Shopify/sarama":     "v1.19.0", // ConsumerGroup, ConsumerGroupSession, ConsumerGroupClaim
	"github.com/IBM/sarama":         "v1.40.0", // the first release under this path; the API is Shopify's
	// nats.go: headers (nats.Header, MsgIdHdr, NewMsg) and the
	// JetStreamContext API (Metadata, InProgress, AckSync, Term, Fetch) are
	// v1.11.0; from templates.JetStreamPackage (v1.26.0) the JetStream glue
	// uses the nats.go/jetstream package instead.
	"github.com/nats-io/nats.go":               "v1.11.0",
	"github.com/rabbitmq/amqp091-go":           "v1.1.0",  // the oldest the module proxy serves (not v1.0.0); the glue calls only streadway's API
	"github.com/streadway/amqp":                "v1.0.0",  // the first tag; Delivery.Ack/Nack/Reject and QueueDeclarePassive are older
	"github.com/go-redis/redis/v8":             "v8.11.1", // XAutoClaim on UniversalClient (v8.11.0 has it on Client only)
	"github.com/redis/go-redis/v9":             "v9.0.0",  // the first release
	"github.com/aws/aws-sdk-go-v2/service/sqs": "v1.32.0", // ReceiveMessageInput.MessageSystemAttributeNames
	"cloud.google.com/go/pubsub/v2":            "v2.0.0",  // the first release (Subscriber); it needs go 1.23
}

// Floor returns the oldest version of module path that generated
// service-side code builds against, or "" when any version does.
func Floor(path string) string { return floors[path] }
