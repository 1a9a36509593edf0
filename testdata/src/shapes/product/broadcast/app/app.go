// Package app updates rows and then tells the other replicas. Evicting a
// cache entry on every replica is no event (CLI: the evictor's subscribers
// only drop keys); a notification streamed to clients and a message a
// subscriber stores are publishes. Every publish here goes through the
// pubsub.PubSub interface, so only the CLI sees them.
package app

import (
	"context"
	"database/sql"

	"shapes/product/broadcast/cache"
)

type Service struct {
	DB       *sql.DB
	Evictor  cache.Evictor[int64]
	Notifier *cache.Notifier
	Replica  *cache.Replica
}

func (s *Service) Rename(ctx context.Context, id int64, name string) error {
	if _, err := s.DB.ExecContext(ctx, "UPDATE repo SET name = $1 WHERE id = $2", name, id); err != nil {
		return err
	}
	s.Evictor.Evict(ctx, id)
	return nil
}

func (s *Service) Archive(ctx context.Context, id int64) error {
	if _, err := s.DB.ExecContext(ctx, "UPDATE repo SET archived = true WHERE id = $1", id); err != nil {
		return err
	}
	s.Notifier.Notify(ctx, []byte("archived"))
	return nil
}

func (s *Service) Copy(ctx context.Context, id int64) error {
	if _, err := s.DB.ExecContext(ctx, "UPDATE repo SET copied = true WHERE id = $1", id); err != nil {
		return err
	}
	s.Replica.Announce(ctx, []byte("copied"))
	return nil
}
