package generate

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/outboxify/outboxify/templates"
)

// Kafka producer configuration the partitioner is read from. Each pattern
// is looked for only in files importing the client's package.
var (
	kafkaGoBalancer = regexp.MustCompile(`\b\w+\.(Hash|ReferenceHash|CRC32Balancer|Murmur2Balancer|RoundRobin|LeastBytes)\s*\{`)
	saramaPart      = regexp.MustCompile(`\b\w+\.(NewHashPartitioner|NewReferenceHashPartitioner|NewConsistentCRCHashPartitioner|NewMurmur2Partitioner|NewRandomPartitioner|NewRoundRobinPartitioner|NewManualPartitioner|NewCustomHashPartitioner|NewCustomPartitioner)\b`)
	confluentPart   = regexp.MustCompile(`"partitioner"\s*[:,]\s*"([a-z0-9_]+)"`)
	franzPart       = regexp.MustCompile(`\bRecordPartitioner\(`)
	franzHasher     = regexp.MustCompile(`\b\w+\.(SaramaCompatHasher|SaramaHasher|KafkaHasher|ManualPartitioner|RoundRobinPartitioner|StickyPartitioner|LeastBackupPartitioner|UniformBytesPartitioner)\(`)
)

// What each producer setting maps to ("" : the producer does not partition
// by key, so no placement needs keeping; "?": keyed, but not one the relay
// can reproduce).
var (
	kafkaGoBalancers = map[string]string{"Hash": "fnv1a", "ReferenceHash": "fnv1a-reference", "CRC32Balancer": "crc32",
		"Murmur2Balancer": "murmur2", "RoundRobin": "", "LeastBytes": ""}
	saramaPartitioners = map[string]string{"NewHashPartitioner": "fnv1a", "NewReferenceHashPartitioner": "fnv1a-reference",
		"NewConsistentCRCHashPartitioner": "crc32", "NewMurmur2Partitioner": "murmur2", "NewRandomPartitioner": "",
		"NewRoundRobinPartitioner": "", "NewManualPartitioner": "", "NewCustomHashPartitioner": "?", "NewCustomPartitioner": "?"}
	// librdkafka's partitioner property (confluent-kafka-go); its default
	// is consistent_random. fnv1a is librdkafka's sarama-compatible hash.
	librdkafkaPartitioners = map[string]string{"consistent_random": "crc32", "consistent": "crc32", "murmur2": "murmur2",
		"murmur2_random": "murmur2", "fnv1a": "fnv1a", "fnv1a_random": "fnv1a", "random": ""}
	franzHashers = map[string]string{"SaramaCompatHasher": "fnv1a", "SaramaHasher": "?", "KafkaHasher": "?",
		"ManualPartitioner": "", "RoundRobinPartitioner": "", "StickyPartitioner": "", "LeastBackupPartitioner": "", "UniformBytesPartitioner": "?"}
)

// kafkaClients are the Kafka producer clients, the package their files
// import, and the partitioner of a producer left at its defaults.
var kafkaClients = []struct {
	name, module, pkg, def, why string
}{
	{"confluent-kafka-go", "github.com/confluentinc/confluent-kafka-go", "github.com/confluentinc/confluent-kafka-go", "crc32",
		"librdkafka's default partitioner consistent_random"},
	{"sarama", "github.com/IBM/sarama", "github.com/IBM/sarama", "fnv1a", "sarama's default NewHashPartitioner"},
	{"sarama", "github.com/Shopify/sarama", "github.com/Shopify/sarama", "fnv1a", "sarama's default NewHashPartitioner"},
	{"franz-go", "github.com/twmb/franz-go", "github.com/twmb/franz-go/pkg/kgo", "murmur2", "franz-go's default partitioner"},
	{"kafka-go", "github.com/segmentio/kafka-go", "github.com/segmentio/kafka-go", "",
		"kafka-go's Writer defaults to the RoundRobin balancer, which ignores keys"},
}

// partitionerFinding is one producer setting found in the code.
type partitionerFinding struct {
	value  string // a KafkaPartitioners value, "" (unkeyed) or "?" (unsupported)
	source string // file:line: what
}

// detectPartitioner returns the Kafka partitioner of the module's existing
// producers and why, plus notes; ok is false when no Kafka client is used.
func detectPartitioner(root string, reqs, imports map[string]bool, skip map[string]bool) (value, source string, notes []string, ok bool) {
	var used []int // indexes into kafkaClients
	for i, c := range kafkaClients {
		for r := range reqs {
			if r == c.module || strings.HasPrefix(r, c.module+"/") {
				used = append(used, i)
				break
			}
		}
	}
	if len(used) == 0 {
		return "", "", nil, false
	}
	findings := scanPartitioners(root, skip)
	var keyed, unkeyed, odd []partitionerFinding
	for _, f := range findings {
		switch f.value {
		case "":
			unkeyed = append(unkeyed, f)
		case "?":
			odd = append(odd, f)
		default:
			keyed = append(keyed, f)
		}
	}
	for _, f := range odd {
		notes = append(notes, fmt.Sprintf("Kafka partitioner at %s is custom; the relay cannot reproduce it: pass --partitioner (%s)",
			f.source, strings.Join(templates.KafkaPartitioners, ", ")))
	}
	if len(keyed) > 0 {
		value, source = keyed[0].value, keyed[0].source
		for _, f := range keyed[1:] {
			if f.value != value {
				notes = append(notes, fmt.Sprintf("another producer partitions with %s (%s); the relay uses %s: pass --partitioner to choose", f.value, f.source, value))
			}
		}
		return value, source, notes, true
	}
	// No keyed setting in the code: the client's default.
	for _, i := range used {
		c := kafkaClients[i]
		if c.def == "" {
			continue
		}
		value, source = c.def, fmt.Sprintf("default (%s; no partitioner set in the code)", c.why)
		break
	}
	for _, i := range used {
		if c := kafkaClients[i]; c.def == "" && imports[c.pkg] {
			notes = append(notes, c.why+": the existing producer spreads one key over all partitions, so no placement is kept")
		}
	}
	for _, f := range unkeyed {
		notes = append(notes, fmt.Sprintf("the producer at %s does not partition by key; no placement to keep", f.source))
	}
	if value == "" {
		value, source = "murmur2", "default (the Java client's and franz-go's murmur2; no keyed producer found)"
	}
	return value, source, notes, true
}

// scanPartitioners finds producer partitioner settings in the module's Go
// files (not its tests), in path order.
func scanPartitioners(root string, skip map[string]bool) []partitionerFinding {
	var out []partitionerFinding
	_ = walkModule(root, func(p string, d fs.DirEntry) error {
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || skip[p] {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		src := string(b)
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		at := func(idx int, what string, value string) {
			line := 1 + strings.Count(src[:idx], "\n")
			out = append(out, partitionerFinding{value: value, source: fmt.Sprintf("%s:%d: %s", rel, line, what)})
		}
		imports := func(pkg string) bool { return strings.Contains(src, `"`+pkg) }
		if imports("github.com/segmentio/kafka-go\"") {
			for _, m := range kafkaGoBalancer.FindAllStringSubmatchIndex(src, -1) {
				name := src[m[2]:m[3]]
				at(m[0], "kafka-go "+name+" balancer", kafkaGoBalancers[name])
			}
		}
		if imports("github.com/IBM/sarama\"") || imports("github.com/Shopify/sarama\"") {
			for _, m := range saramaPart.FindAllStringSubmatchIndex(src, -1) {
				name := src[m[2]:m[3]]
				at(m[0], "sarama "+name, saramaPartitioners[name])
			}
		}
		if imports("github.com/confluentinc/confluent-kafka-go") {
			for _, m := range confluentPart.FindAllStringSubmatchIndex(src, -1) {
				name := src[m[2]:m[3]]
				v, known := librdkafkaPartitioners[name]
				if !known {
					v = "?"
				}
				at(m[0], fmt.Sprintf("librdkafka partitioner %q", name), v)
			}
		}
		if imports("github.com/twmb/franz-go/pkg/kgo\"") {
			for _, m := range franzPart.FindAllStringIndex(src, -1) {
				rest := src[m[1]:min(len(src), m[1]+300)]
				if hm := franzHasher.FindStringSubmatch(rest); hm != nil {
					at(m[0], "franz-go RecordPartitioner with "+hm[1], franzHashers[hm[1]])
				} else if !strings.HasPrefix(strings.TrimSpace(rest), "kgo.StickyKeyPartitioner(nil)") {
					at(m[0], "franz-go RecordPartitioner", "?")
				}
			}
		}
		return nil
	})
	return out // walkModule goes in lexical order, each file top to bottom
}
