// Package cache is a CI product's Redis store: key-value entries with a
// time to live, and work queues kept in Redis lists that the product's own
// workers pop (Enqueue pushes, DequeueWithContext blocks on BRPOP). The
// push is a publish to a queue.
package cache

import (
	"context"
	"encoding/json"
	"time"

	"github.com/redis/go-redis/v9"
)

// Store is what the services hold.
type Store interface {
	Set(key string, value any) error
	Enqueue(queueName string, value any) error
	DequeueWithContext(ctx context.Context, queueName string, wait time.Duration, value any) error
}

type RedisStore struct {
	Client *redis.Client
	ttl    time.Duration
}

func (s *RedisStore) Set(key string, value any) error {
	b, err := json.Marshal(value)
	if err != nil {
		return err
	}
	return s.Client.Set(context.Background(), key, b, s.ttl).Err()
}

func (s *RedisStore) Enqueue(queueName string, value any) error {
	b, err := json.Marshal(value)
	if err != nil {
		return err
	}
	return s.Client.LPush(context.Background(), queueName, string(b)).Err()
}

func (s *RedisStore) DequeueWithContext(ctx context.Context, queueName string, wait time.Duration, value any) error {
	for ctx.Err() == nil {
		res, err := s.Client.BRPop(ctx, wait, queueName).Result()
		if err != nil || len(res) != 2 {
			continue
		}
		return json.Unmarshal([]byte(res[1]), value)
	}
	return ctx.Err()
}
