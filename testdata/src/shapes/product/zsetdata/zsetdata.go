// Package zsetdata keeps a leaderboard in a Redis sorted set and never pops
// it: ZADD is data kept beside the write, no publish.
package zsetdata

import (
	"context"
	"database/sql"

	"github.com/redis/go-redis/v9"
)

type Scores struct {
	db  *sql.DB
	rdb *redis.Client
}

func (s *Scores) Record(ctx context.Context, player string, score float64) error {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO scores (player, score) VALUES ($1, $2)", player, score); err != nil {
		return err
	}
	return s.rdb.ZAdd(ctx, "leaderboard", redis.Z{Score: score, Member: player}).Err()
}
