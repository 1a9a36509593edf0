// Package sqlcache has a key-value cache kept in a SQL table (a
// translation cache with expiry): filling it is not a write an event
// announces. A reservation with a hold time is a store write.
package sqlcache

import (
	"context"
	"database/sql"
	"time"

	"github.com/nats-io/nats.go"
)

type CacheRepo struct{ db *sql.DB }

func (r *CacheRepo) Get(ctx context.Context, key string) (string, error) {
	var v string
	err := r.db.QueryRowContext(ctx, "SELECT value FROM cache WHERE key = $1", key).Scan(&v)
	return v, err
}

func (r *CacheRepo) Set(ctx context.Context, key string, value string, ttl time.Duration) error {
	_, err := r.db.ExecContext(ctx, "INSERT INTO cache (key, value, valid_until) VALUES ($1, $2, $3)", key, value, time.Now().Add(ttl))
	return err
}

type Seats struct{ db *sql.DB }

// Reserve holds a seat: a store write, though it takes a duration.
func (s *Seats) Reserve(ctx context.Context, seat string, owner string, hold time.Duration) error {
	_, err := s.db.ExecContext(ctx, "UPDATE seats SET owner = $1, held_until = $2 WHERE id = $3", owner, time.Now().Add(hold), seat)
	return err
}

type Service struct {
	cache *CacheRepo
	seats *Seats
	nc    *nats.Conn
}

// SendCode caches the translated text, then queues the code: no finding.
func (s *Service) SendCode(ctx context.Context, phone string) error {
	if err := s.cache.Set(ctx, "text:en", "Your code", time.Hour); err != nil {
		return err
	}
	return s.nc.Publish("sms.code", []byte(phone))
}

// Hold reserves, then announces: a dual write.
func (s *Service) Hold(ctx context.Context, seat string) error {
	if err := s.seats.Reserve(ctx, seat, "me", time.Minute); err != nil {
		return err
	}
	return s.nc.Publish("seats.held", []byte(seat)) // want "OBX001"
}
