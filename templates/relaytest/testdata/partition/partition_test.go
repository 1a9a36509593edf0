package partitiontest

import (
	"context"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/IBM/sarama"
	"github.com/segmentio/kafka-go"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

const (
	numKeys       = 10000
	numPartitions = 12
)

type publishFunc func(ctx context.Context, seeds []string, topic string, keys []string) error

// relayCase is one rendered relay (cases_test.go).
type relayCase struct {
	ident, broker, partitioner string
	publish                    publishFunc
}

var relayCases []relayCase

func register(c relayCase) { relayCases = append(relayCases, c) }

// reference is a client's own producer configured with one partitioner.
type reference struct {
	name, partitioner string
	produce           publishFunc
}

var references []reference

func addReference(name, partitioner string, produce publishFunc) {
	references = append(references, reference{name, partitioner, produce})
}

func init() {
	addReference("franz-go default partitioner", "murmur2", franzProduce(nil))
	addReference("kafka-go Murmur2Balancer", "murmur2", kafkaGoProduce(kafka.Murmur2Balancer{}))
	addReference("kafka-go Hash", "fnv1a", kafkaGoProduce(&kafka.Hash{}))
	addReference("kafka-go ReferenceHash", "fnv1a-reference", kafkaGoProduce(&kafka.ReferenceHash{}))
	addReference("kafka-go CRC32Balancer", "crc32", kafkaGoProduce(kafka.CRC32Balancer{}))
	addReference("sarama NewMurmur2Partitioner", "murmur2", saramaProduce(sarama.NewMurmur2Partitioner))
	addReference("sarama default (NewHashPartitioner)", "fnv1a", saramaProduce(nil))
	addReference("sarama NewReferenceHashPartitioner", "fnv1a-reference", saramaProduce(sarama.NewReferenceHashPartitioner))
	addReference("sarama NewConsistentCRCHashPartitioner", "crc32", saramaProduce(sarama.NewConsistentCRCHashPartitioner))
}

func franzProduce(p kgo.Partitioner) publishFunc {
	return func(ctx context.Context, seeds []string, topic string, keys []string) error {
		return franzProduceRecords(ctx, seeds, p, topic, keys, nil)
	}
}

// franzProduceRecords produces keys with franz-go (its default partitioner
// when p is nil), each record passed to modify first when it is not nil.
func franzProduceRecords(ctx context.Context, seeds []string, p kgo.Partitioner, topic string, keys []string, modify func(*kgo.Record)) error {
	opts := []kgo.Opt{kgo.SeedBrokers(seeds...)}
	if p != nil {
		opts = append(opts, kgo.RecordPartitioner(p))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return err
	}
	defer cl.Close()
	var firstErr error
	var mu sync.Mutex
	for _, k := range keys {
		r := &kgo.Record{Topic: topic, Key: []byte(k), Value: []byte("p")}
		if modify != nil {
			modify(r)
		}
		cl.Produce(ctx, r, func(_ *kgo.Record, err error) {
			mu.Lock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			mu.Unlock()
		})
	}
	if err := cl.Flush(ctx); err != nil {
		return err
	}
	return firstErr
}

func kafkaGoProduce(b kafka.Balancer) publishFunc {
	return func(ctx context.Context, seeds []string, topic string, keys []string) error {
		w := &kafka.Writer{Addr: kafka.TCP(seeds...), Topic: topic, Balancer: b, BatchSize: 1000, BatchTimeout: time.Millisecond}
		defer w.Close()
		msgs := make([]kafka.Message, len(keys))
		for i, k := range keys {
			msgs[i] = kafka.Message{Key: []byte(k), Value: []byte("p")}
		}
		return w.WriteMessages(ctx, msgs...)
	}
}

func saramaProduce(p sarama.PartitionerConstructor) publishFunc {
	return func(ctx context.Context, seeds []string, topic string, keys []string) error {
		cfg := sarama.NewConfig() // its Producer.Partitioner is the default unless p is given
		if p != nil {
			cfg.Producer.Partitioner = p
		}
		cfg.Producer.Return.Successes = true
		sp, err := sarama.NewSyncProducer(seeds, cfg)
		if err != nil {
			return err
		}
		defer sp.Close()
		msgs := make([]*sarama.ProducerMessage, len(keys))
		for i, k := range keys {
			msgs[i] = &sarama.ProducerMessage{Topic: topic, Key: sarama.StringEncoder(k), Value: sarama.StringEncoder("p")}
		}
		return sp.SendMessages(msgs)
	}
}

// testKeys are numKeys distinct keys of the shapes aggregate ids take:
// UUIDs, numbers, prefixed ids, random bytes of 1 to 64, non-ASCII.
func testKeys() []string {
	r := rand.New(rand.NewSource(20))
	seen := map[string]bool{}
	var keys []string
	add := func(k string) {
		if k != "" && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	for len(keys) < numKeys {
		switch len(keys) % 5 {
		case 0:
			b := make([]byte, 16)
			r.Read(b)
			add(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]))
		case 1:
			add(fmt.Sprint(r.Int63n(1 << 40)))
		case 2:
			add(fmt.Sprintf("order-%d", len(keys)))
		case 3:
			b := make([]byte, 1+r.Intn(64))
			r.Read(b)
			add(string(b))
		case 4:
			add(fmt.Sprintf("kunde-ü-%d-€", r.Intn(1<<30)))
		}
	}
	return keys
}

func topicName(prefix, name string) string {
	return prefix + "-" + strings.NewReplacer(" ", "-", "(", "", ")", "").Replace(name)
}

// consume reads n records of topic and returns each key's partition.
func consume(ctx context.Context, t *testing.T, seeds []string, topic string, n int) map[string]int32 {
	cl, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	got := map[string]int32{}
	for len(got) < n && ctx.Err() == nil {
		cl.PollFetches(ctx).EachRecord(func(r *kgo.Record) {
			if p, ok := got[string(r.Key)]; ok && p != r.Partition {
				t.Errorf("%s: key %q in partitions %d and %d", topic, r.Key, p, r.Partition)
			}
			got[string(r.Key)] = r.Partition
		})
	}
	if len(got) != n {
		t.Fatalf("%s: %d of %d keys read", topic, len(got), n)
	}
	return got
}

func TestKafkaPartitioners(t *testing.T) {
	keys := testKeys()
	var topics []string
	for _, r := range references {
		topics = append(topics, topicName("ref", r.name))
	}
	for _, c := range relayCases {
		topics = append(topics, topicName("relay", c.ident))
	}
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(numPartitions, topics...))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	seeds := cluster.ListenAddrs()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	refParts := map[string]map[string]int32{} // reference name -> key -> partition
	for _, r := range references {
		topic := topicName("ref", r.name)
		if err := r.produce(ctx, seeds, topic, keys); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		refParts[r.name] = consume(ctx, t, seeds, topic, len(keys))
		used := map[int32]bool{}
		for _, p := range refParts[r.name] {
			used[p] = true
		}
		if len(used) != numPartitions {
			t.Fatalf("%s put %d keys on %d of %d partitions: not a keyed partitioner", r.name, len(keys), len(used), numPartitions)
		}
	}
	// References of one partitioner must agree with each other.
	byPartitioner := map[string][]reference{}
	for _, r := range references {
		byPartitioner[r.partitioner] = append(byPartitioner[r.partitioner], r)
	}
	for p, rs := range byPartitioner {
		for _, r := range rs[1:] {
			if n := mismatches(keys, refParts[rs[0].name], refParts[r.name]); n > 0 {
				t.Errorf("partitioner %s: references %q and %q disagree on %d of %d keys", p, rs[0].name, r.name, n, len(keys))
			}
		}
	}

	sort.Slice(relayCases, func(i, j int) bool { return relayCases[i].ident < relayCases[j].ident })
	for _, c := range relayCases {
		t.Run(c.ident, func(t *testing.T) {
			topic := topicName("relay", c.ident)
			if err := c.publish(ctx, seeds, topic, keys); err != nil {
				t.Fatal(err)
			}
			got := consume(ctx, t, seeds, topic, len(keys))
			rs := byPartitioner[c.partitioner]
			if len(rs) == 0 {
				t.Fatalf("no reference producer for partitioner %s", c.partitioner)
			}
			for _, r := range rs {
				n := mismatches(keys, refParts[r.name], got)
				t.Logf("counts: relay %s (%s) vs %s: %d keys, %d on another partition", c.broker, c.partitioner, r.name, len(keys), n)
				if n > 0 {
					t.Errorf("relay %s --partitioner %s puts %d of %d keys on another partition than %s", c.broker, c.partitioner, n, len(keys), r.name)
				}
			}
		})
	}
}

func mismatches(keys []string, a, b map[string]int32) int {
	n := 0
	for _, k := range keys {
		if a[k] != b[k] {
			n++
		}
	}
	return n
}
