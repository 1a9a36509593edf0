//go:build !cgo

package partitiontest

import (
	"context"
	"hash/crc32"
	"hash/fnv"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Without cgo confluent-kafka-go (librdkafka) cannot be built: its keyed
// partitioners are computed from librdkafka's rdkafka_msg.c instead
// (consistent: rd_crc32(key) % n, unsigned; fnv1a: sarama's |int32(h) % n|)
// and placed with franz-go's manual partitioner. This proves less than the
// cgo build, which produces through librdkafka itself.
func init() {
	addReference("librdkafka consistent_random (computed, cgo off)", "crc32", computed(func(k []byte, n uint32) int32 {
		return int32(crc32.ChecksumIEEE(k) % n)
	}))
	addReference("librdkafka fnv1a_random (computed, cgo off)", "fnv1a", computed(func(k []byte, n uint32) int32 {
		h := fnv.New32a()
		h.Write(k)
		p := int32(h.Sum32()) % int32(n)
		if p < 0 {
			p = -p
		}
		return p
	}))
}

func computed(part func(key []byte, n uint32) int32) publishFunc {
	return func(ctx context.Context, seeds []string, topic string, keys []string) error {
		return franzProduceRecords(ctx, seeds, kgo.ManualPartitioner(), topic, keys, func(r *kgo.Record) {
			r.Partition = part(r.Key, numPartitions)
		})
	}
}
