package relaytest

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"testing"
	"text/template"

	"github.com/outboxify/outboxify/templates"
)

// partitionBrokers are the Kafka relay clients.
var partitionBrokers = []string{"kafka-go", "franz-go", "sarama"}

// PartitionCases returns one relay per Kafka client and partitioner.
func PartitionCases() []Case {
	var cs []Case
	for _, b := range partitionBrokers {
		for _, p := range templates.KafkaPartitioners {
			c := Case{DB: "postgres", Broker: b, Partitioner: p}
			c.Dir = "parts/" + c.Ident()
			cs = append(cs, c)
		}
	}
	return cs
}

// partitionCasesTemplate registers every rendered Kafka relay with the
// inner partition test: a function that publishes keys through the rendered
// publisher, its client configured with the rendered partitioner (the one
// the relay's own open uses).
var partitionCasesTemplate = template.Must(template.New("cases").Parse(`package partitiontest

import (
	"context"
	"fmt"
	"time"

	"github.com/IBM/sarama"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kgo"
{{range .Cases}}
	{{.Ident}} "{{$.Module}}/{{.Dir}}/outboxrelay"{{end}}
)

var (
	_ = sarama.NewConfig
	_ = kafka.TCP
	_ = kgo.NewClient
	_ = time.Millisecond
)

func init() {
{{- range .Cases}}
	register(relayCase{ident: "{{.Ident}}", broker: "{{.Broker}}", partitioner: "{{.Partitioner}}",
		publish: func(ctx context.Context, seeds []string, topic string, keys []string) error {
{{- if eq .Broker "kafka-go"}}
			w := &kafka.Writer{Addr: kafka.TCP(seeds...), Balancer: {{.Ident}}.KafkaGoBalancer(), RequiredAcks: kafka.RequireAll,
				BatchSize: 1000, BatchTimeout: time.Millisecond}
			defer w.Close()
			p := {{.Ident}}.NewKafkaGoPublisher(w)
{{- else if eq .Broker "franz-go"}}
			cl, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.RecordPartitioner({{.Ident}}.FranzGoPartitioner()))
			if err != nil {
				return err
			}
			defer cl.Close()
			p := {{.Ident}}.NewFranzGoPublisher(cl)
{{- else}}
			cfg := sarama.NewConfig()
			cfg.Producer.Return.Successes = true
			cfg.Producer.RequiredAcks = sarama.WaitForAll
			cfg.Producer.Partitioner = {{.Ident}}.SaramaPartitioner
			sp, err := sarama.NewSyncProducer(seeds, cfg)
			if err != nil {
				return err
			}
			defer sp.Close()
			p := {{.Ident}}.NewSaramaPublisher(sp)
{{- end}}
			for start := 0; start < len(keys); start += 500 {
				end := min(start+500, len(keys))
				msgs := make([]*{{.Ident}}.Message, 0, end-start)
				for i := start; i < end; i++ {
					msgs = append(msgs, &{{.Ident}}.Message{ID: fmt.Sprint(i), AggregateType: topic, AggregateID: keys[i], EventType: "e", Payload: []byte("p")})
				}
				for i, err := range p.Publish(ctx, msgs) {
					if err != nil {
						return fmt.Errorf("key %q: %w", keys[start+i], err)
					}
				}
			}
			return nil
		}})
{{- end}}
}
`))

// TestKafkaPartitioners renders the Kafka relay of every client with every
// partitioner and runs testdata/partition there: 10,000 keys go through each
// client's own producer configured with that partitioner (sarama, kafka-go,
// franz-go and, when cgo builds, confluent-kafka-go's librdkafka) and through
// each rendered relay publisher into a kfake cluster of 12 partitions; every
// key must land on the same partition both ways.
func TestKafkaPartitioners(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the rendered Kafka relays and runs them against kfake")
	}
	cases := PartitionCases()
	files, err := RenderCases(cases)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := partitionCasesTemplate.Execute(&b, map[string]any{"Module": ModulePath, "Cases": cases}); err != nil {
		t.Fatal(err)
	}
	files["partitiontest/cases_test.go"] = b.Bytes()
	inner := os.DirFS("testdata/partition")
	err = fs.WalkDir(inner, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(inner, p)
		files["partitiontest/"+p] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := keepOrTemp(t, files)
	out, err := goIn(dir, os.Environ(), "test", "-count=1", "-timeout=10m", "-v", "./partitiontest/")
	if err != nil {
		t.Fatalf("inner partition test failed: %v\n%s", err, out)
	}
	t.Logf("inner partition test (%s):\n%s", path.Join(dir, "partitiontest"), out)
}
