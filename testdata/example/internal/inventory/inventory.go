// Package inventory reserves stock. Stock levels live in PostgreSQL; a Redis
// cache serves reads and Redis pub/sub tells the storefront about changes.
package inventory

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/redis/go-redis/v9"
)

// Stock reserves and releases items.
type Stock struct {
	pool *pgxpool.Pool
	rdb  *redis.Client
}

// NewStock returns a Stock on pool and rdb.
func NewStock(pool *pgxpool.Pool, rdb *redis.Client) *Stock { return &Stock{pool: pool, rdb: rdb} }

// Reserve takes qty items of sku and tells the storefront.
func (s *Stock) Reserve(ctx context.Context, sku string, qty int) error {
	tag, err := s.pool.Exec(ctx, `UPDATE stock SET available = available - $2 WHERE sku = $1 AND available >= $2`, sku, qty)
	if err != nil {
		return fmt.Errorf("reserve %s: %w", sku, err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("reserve %s: not enough stock", sku)
	}
	// A cache write is not a publish.
	s.rdb.Set(ctx, "stock-dirty:"+sku, "1", 0)
	return s.rdb.Publish(ctx, "stock.changed", sku+":"+strconv.Itoa(-qty)).Err() // scan: OBX001
}

// Available reads the stock of sku, caching it.
func (s *Stock) Available(ctx context.Context, sku string) (int, error) {
	if v, err := s.rdb.Get(ctx, "stock:"+sku).Int(); err == nil {
		return v, nil
	}
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT available FROM stock WHERE sku = $1`, sku).Scan(&n); err != nil {
		return 0, fmt.Errorf("stock of %s: %w", sku, err)
	}
	s.rdb.Set(ctx, "stock:"+sku, n, 0)
	return n, nil
}

// Heartbeat announces that the inventory service is alive: no DB write, no dual write.
func (s *Stock) Heartbeat(ctx context.Context) error {
	return s.rdb.Publish(ctx, "inventory.heartbeat", "ok").Err()
}
