package order

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/redis/go-redis/v9"
)

// Repository is what the service needs from storage.
type Repository interface {
	Create(ctx context.Context, o Order) error
	SetStatus(ctx context.Context, id, status string) error
	Get(ctx context.Context, id string) (Order, error)
}

// Events announces order changes to other services.
type Events interface {
	OrderPlaced(ctx context.Context, o Order) error
	OrderCancelled(ctx context.Context, id string) error
}

// Service holds the order use cases.
type Service struct {
	repo   Repository
	events Events
	pool   *pgxpool.Pool
	nc     *nats.Conn
	cache  *redis.Client
}

// NewService wires the service; the repository and the publisher are
// injected so that tests can replace them.
func NewService(repo Repository, events Events, pool *pgxpool.Pool, nc *nats.Conn, cache *redis.Client) *Service {
	return &Service{repo: repo, events: events, pool: pool, nc: nc, cache: cache}
}

// PlaceOrder saves a new order and announces it.
func (s *Service) PlaceOrder(ctx context.Context, o Order) error {
	o.Status = "placed"
	if err := s.repo.Create(ctx, o); err != nil {
		return err
	}
	if err := s.events.OrderPlaced(ctx, o); err != nil { // scan: OBX001
		return fmt.Errorf("announce order %s: %w", o.ID, err)
	}
	return nil
}

// CancelOrder marks the order cancelled and tells the other services.
func (s *Service) CancelOrder(ctx context.Context, id string) error {
	if err := s.repo.SetStatus(ctx, id, "cancelled"); err != nil {
		return err
	}
	// The cache is not the store of record: refreshing it is not a dual write.
	if err := s.cache.Del(ctx, "order:"+id).Err(); err != nil {
		return fmt.Errorf("drop cached order %s: %w", id, err)
	}
	return s.events.OrderCancelled(ctx, id) // scan: OBX001
}

// ConfirmOrder confirms the order in a transaction, then publishes on NATS.
func (s *Service) ConfirmOrder(ctx context.Context, id string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `UPDATE orders SET status = 'confirmed' WHERE id = $1`, id); err != nil {
		return fmt.Errorf("confirm order %s: %w", id, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return s.nc.Publish("orders.confirmed", []byte(id)) // scan: OBX002
}

// ShipOrder records the shipment and publishes while the transaction is
// still open.
func (s *Service) ShipOrder(ctx context.Context, id, trackingCode string) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `UPDATE orders SET status = 'shipped', tracking_code = $2 WHERE id = $1`, id, trackingCode); err != nil {
		return fmt.Errorf("ship order %s: %w", id, err)
	}
	body, err := json.Marshal(map[string]string{"order_id": id, "tracking_code": trackingCode})
	if err != nil {
		return fmt.Errorf("encode shipment: %w", err)
	}
	if err := s.nc.Publish("orders.shipped", body); err != nil { // scan: OBX003
		return fmt.Errorf("publish shipment: %w", err)
	}
	return tx.Commit(ctx)
}

// PlaceOrderWithOutbox is the correct shape: the order and its event are
// written in one transaction; a relay publishes the outbox row later.
func (s *Service) PlaceOrderWithOutbox(ctx context.Context, o Order) error {
	payload, err := json.Marshal(o)
	if err != nil {
		return fmt.Errorf("encode order: %w", err)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := CreateTx(ctx, tx, o); err != nil {
			return err
		}
		_, err := tx.Exec(ctx,
			`INSERT INTO outbox (id, aggregate_type, aggregate_id, event_type, payload) VALUES (gen_random_uuid(), 'orders', $1, 'OrderPlaced', $2)`,
			o.ID, payload)
		return err
	})
}

// OrderView returns the order, from the cache when it is there.
func (s *Service) OrderView(ctx context.Context, id string) (Order, error) {
	if b, err := s.cache.Get(ctx, "order:"+id).Bytes(); err == nil {
		var o Order
		if json.Unmarshal(b, &o) == nil {
			return o, nil
		}
	}
	o, err := s.repo.Get(ctx, id)
	if err != nil {
		return Order{}, err
	}
	b, _ := json.Marshal(o)
	s.cache.Set(ctx, "order:"+id, b, 0)
	return o, nil
}
