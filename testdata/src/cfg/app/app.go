// Package app uses a team's own event bus and repository, named in the
// configuration, and a Redis cache that is its store of record.
package app

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// Bus is the team's event bus (configured as a publisher).
type Bus struct{}

func (b *Bus) Emit(ctx context.Context, topic string, v any) error { return nil }

// Store is the team's repository over a document store (configured as a writer).
type Store struct{}

func (s *Store) Put(ctx context.Context, key string, v any) error { return nil }

type Service struct {
	bus   *Bus
	store *Store
	rdb   *redis.Client
}

func (s *Service) Save(ctx context.Context, id string) error {
	if err := s.store.Put(ctx, id, nil); err != nil {
		return err
	}
	return s.bus.Emit(ctx, "orders", id) // want `OBX001 publish \(\*app.Bus\).Emit after the autocommitted DB write \(\*app.Store\).Put`
}

func (s *Service) Cache(ctx context.Context, id string) error {
	s.rdb.Set(ctx, "order:"+id, "paid", time.Hour)
	return s.bus.Emit(ctx, "orders", id) // want `OBX001 .*\(redis.cmdable\).Set`
}
