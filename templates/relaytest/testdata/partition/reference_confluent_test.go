//go:build cgo

package partitiontest

import (
	"context"
	"fmt"

	ckafka "github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// confluent-kafka-go's librdkafka producer, default configuration
// (partitioner consistent_random) and the other keyed partitioners.
func init() {
	addReference("confluent-kafka-go default (consistent_random)", "crc32", confluentProduce(""))
	addReference("confluent-kafka-go consistent", "crc32", confluentProduce("consistent"))
	addReference("confluent-kafka-go murmur2_random", "murmur2", confluentProduce("murmur2_random"))
	addReference("confluent-kafka-go fnv1a_random", "fnv1a", confluentProduce("fnv1a_random"))
}

func confluentProduce(partitioner string) publishFunc {
	return func(ctx context.Context, seeds []string, topic string, keys []string) error {
		cm := &ckafka.ConfigMap{"bootstrap.servers": seeds[0], "linger.ms": 5, "log_level": 3}
		if partitioner != "" {
			if err := cm.SetKey("partitioner", partitioner); err != nil {
				return err
			}
		}
		p, err := ckafka.NewProducer(cm)
		if err != nil {
			return err
		}
		defer p.Close()
		done := make(chan error, 1)
		go func() {
			n := 0
			for e := range p.Events() {
				if m, ok := e.(*ckafka.Message); ok {
					if m.TopicPartition.Error != nil {
						done <- fmt.Errorf("key %q: %w", m.Key, m.TopicPartition.Error)
						return
					}
					if n++; n == len(keys) {
						done <- nil
						return
					}
				}
			}
		}()
		for _, k := range keys {
			m := &ckafka.Message{TopicPartition: ckafka.TopicPartition{Topic: &topic, Partition: ckafka.PartitionAny}, Key: []byte(k), Value: []byte("p")}
			for {
				err := p.Produce(m, nil)
				if err == nil {
					break
				}
				if e, ok := err.(ckafka.Error); !ok || e.Code() != ckafka.ErrQueueFull {
					return err
				}
				p.Flush(100)
			}
		}
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
