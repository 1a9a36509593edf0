package templates_test

import (
	"strings"
	"testing"

	"github.com/outboxify/outboxify/templates"
)

// TestOutboxMDStatesPartitioner: OUTBOX.md says which partitioner the Kafka
// relay uses and why; other brokers say nothing of partitions.
func TestOutboxMDStatesPartitioner(t *testing.T) {
	for _, tc := range []struct {
		broker, partitioner, source, want string
	}{
		{"franz-go", "crc32", "default (librdkafka's default partitioner consistent_random)", "**crc32** partitioner (default (librdkafka's"},
		{"sarama", "", "", "**fnv1a** partitioner (the relay client's default"},
		{"kafka-go", "murmur2", "--partitioner murmur2", "**murmur2** partitioner (--partitioner murmur2)"},
		{"nats", "", "", ""},
	} {
		out, err := templates.Render(templates.Config{Module: "example.com/m", Broker: tc.broker, Partitioner: tc.partitioner,
			PartitionerSource: tc.source}, "ops")
		if err != nil {
			t.Fatal(err)
		}
		var md string
		for _, f := range out {
			if strings.HasSuffix(f.Path, "OUTBOX.md") {
				md = string(f.Content)
			}
		}
		if tc.want == "" {
			if strings.Contains(md, "partitioner") {
				t.Errorf("%s: OUTBOX.md speaks of a partitioner", tc.broker)
			}
			continue
		}
		if !strings.Contains(md, tc.want) {
			t.Errorf("%s: OUTBOX.md lacks %q", tc.broker, tc.want)
		}
	}
}
