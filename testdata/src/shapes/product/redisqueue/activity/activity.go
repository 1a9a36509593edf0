// Package activity keeps the last hundred actions of a user in a capped
// Redis list that is only read back for display: nothing pops it, so a
// push is data, not a message.
package activity

import (
	"context"

	"github.com/redis/go-redis/v9"
)

type Log struct{ Client *redis.Client }

func (l *Log) Record(ctx context.Context, user, action string) error {
	key := "activity:" + user
	if err := l.Client.LPush(ctx, key, action).Err(); err != nil {
		return err
	}
	return l.Client.LTrim(ctx, key, 0, 99).Err()
}
