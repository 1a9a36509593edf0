// Package cache keeps in-memory caches in step across the replicas of a
// service: a generic Evictor publishes the key of a changed row on a Pub/Sub
// topic it also subscribes to, and each replica's subscriber drops the key
// from its own cache. Notifier and Replica have the same publish/subscribe
// shape, but their subscribers hand the message on (to a streaming
// client's channel) or write it to the database.
package cache

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/gob"
	"sync"

	"shapes/product/broadcast/pubsub"
)

type Evictor[T any] struct {
	topic string
	bus   pubsub.PubSub
}

func NewEvictor[T any](topic string, bus pubsub.PubSub) Evictor[T] {
	return Evictor[T]{topic: topic, bus: bus}
}

func (e Evictor[T]) Subscribe(ctx context.Context, fn func(key T) error) {
	e.bus.Subscribe(ctx, e.topic, func(payload []byte) error {
		var key T
		if err := gob.NewDecoder(bytes.NewReader(payload)).Decode(&key); err != nil {
			return err
		}
		return fn(key)
	})
}

func (e Evictor[T]) Evict(ctx context.Context, key T) {
	buf := bytes.NewBuffer(nil)
	_ = gob.NewEncoder(buf).Encode(key)
	_ = e.bus.Publish(ctx, e.topic, buf.Bytes())
}

type TTLCache[K comparable, V any] struct {
	mu    sync.Mutex
	items map[K]V
}

func (c *TTLCache[K, V]) Evict(_ context.Context, key K) {
	c.mu.Lock()
	delete(c.items, key)
	c.mu.Unlock()
}

func (c *TTLCache[K, V]) EvictAll(_ context.Context) {
	c.mu.Lock()
	clear(c.items)
	c.mu.Unlock()
}

// NewRepoCache registers this replica's subscribers: they only drop keys.
func NewRepoCache(ctx context.Context, byID Evictor[int64], all Evictor[string]) *TTLCache[int64, string] {
	c := &TTLCache[int64, string]{items: map[int64]string{}}
	byID.Subscribe(ctx, func(id int64) error {
		c.Evict(ctx, id)
		return nil
	})
	all.Subscribe(ctx, func(string) error {
		c.EvictAll(ctx)
		return nil
	})
	return c
}

// Notifier streams events to connected clients: its subscriber sends each
// message on to a client's channel, so the message leaves the process.
type Notifier struct {
	topic   string
	bus     pubsub.PubSub
	clients chan []byte
}

func (n *Notifier) Notify(ctx context.Context, payload []byte) {
	_ = n.bus.Publish(ctx, n.topic, payload)
}

func (n *Notifier) Listen(ctx context.Context) {
	n.bus.Subscribe(ctx, n.topic, func(payload []byte) error {
		select {
		case n.clients <- payload:
		default:
		}
		return nil
	})
}

// Replica copies rows to a replica table: its subscriber writes.
type Replica struct {
	topic string
	bus   pubsub.PubSub
	db    *sql.DB
}

func (r *Replica) Announce(ctx context.Context, payload []byte) {
	_ = r.bus.Publish(ctx, r.topic, payload)
}

func (r *Replica) Follow(ctx context.Context) {
	r.bus.Subscribe(ctx, r.topic, func(payload []byte) error {
		_, err := r.db.ExecContext(ctx, "INSERT INTO replica (payload) VALUES ($1)", payload)
		return err
	})
}
