// Package basic holds the single-function shapes and the negatives a naive
// tool flags.
package basic

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"log"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/sns"
	"github.com/redis/go-redis/v9"
	"github.com/segmentio/kafka-go"
)

type Service struct {
	db  *sql.DB
	w   *kafka.Writer
	dlq *kafka.Writer
	rdb *redis.Client
	s3  *s3.Client
	sns *sns.Client
}

type Order struct{ ID, Status string }

func (s *Service) PayAutocommit(ctx context.Context, o Order) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", o.ID); err != nil {
		return err
	}
	b, _ := json.Marshal(o)
	return s.w.WriteMessages(ctx, kafka.Message{Topic: "orders", Key: []byte(o.ID), Value: b}) // want `OBX001 publish \(\*kafka.Writer\).WriteMessages after the autocommitted DB write \(\*sql.DB\).ExecContext at basic.go:31: .*event is lost`
}

func (s *Service) PublishFirst(ctx context.Context, o Order) error {
	if err := s.w.WriteMessages(ctx, kafka.Message{Topic: "orders"}); err != nil { // want `OBX004 publish .* before the DB write \(\*sql.DB\).ExecContext at basic.go:42`
		return err
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", o.ID)
	return err
}

func (s *Service) Goroutine(ctx context.Context, o Order) error {
	_, err := s.db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", o.ID)
	go func() {
		_ = s.w.WriteMessages(context.Background(), kafka.Message{Topic: "orders"}) // want `OBX005 publish .* in a goroutine`
	}()
	return err
}

func (s *Service) Deferred(ctx context.Context, o Order) error {
	defer s.w.WriteMessages(ctx, kafka.Message{Topic: "orders"}) // want `OBX005 publish .* in a defer`
	_, err := s.db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", o.ID)
	return err
}

func (s *Service) RetryLoop(ctx context.Context, o Order) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", o.ID); err != nil {
		return err
	}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.w.WriteMessages(ctx, kafka.Message{Topic: "orders"}); err == nil { // want `OBX005 publish .* in a retry loop`
			return nil
		}
		time.Sleep(time.Second << attempt)
	}
	return err
}

// Publish errors ignored or only logged: still a dual write.
func (s *Service) IgnoredError(ctx context.Context, o Order) {
	s.db.ExecContext(ctx, "DELETE FROM carts WHERE order_id = $1", o.ID)
	_ = s.w.WriteMessages(ctx, kafka.Message{Topic: "carts"})          // want `OBX001`
	if _, err := s.sns.Publish(ctx, &sns.PublishInput{}); err != nil { // want `OBX001 publish \(\*sns.Client\).Publish`
		log.Printf("publish: %v", err)
	}
}

// Publishes in a loop after the write.
func (s *Service) PublishEach(ctx context.Context, orders []Order) error {
	for _, o := range orders {
		if _, err := s.db.ExecContext(ctx, "UPDATE orders SET status = 'shipped' WHERE id = $1", o.ID); err != nil {
			return err
		}
	}
	for _, o := range orders {
		s.w.WriteMessages(ctx, kafka.Message{Topic: "orders", Key: []byte(o.ID)}) // want `OBX001`
	}
	return nil
}

// A read-only branch next to a writing one: only the writing branch's publish is reported.
func (s *Service) Touch(ctx context.Context, o Order, readOnly bool) error {
	if readOnly {
		var status string
		if err := s.db.QueryRowContext(ctx, "SELECT status FROM orders WHERE id = $1", o.ID).Scan(&status); err != nil {
			return err
		}
		return s.w.WriteMessages(ctx, kafka.Message{Topic: "order-views"})
	}
	if _, err := s.db.ExecContext(ctx, "UPDATE orders SET touched_at = now() WHERE id = $1", o.ID); err != nil {
		return err
	}
	return s.w.WriteMessages(ctx, kafka.Message{Topic: "orders"}) // want `OBX001`
}

// Negatives.

// A dead-letter publish on the write's error path: the write failed, nothing to announce.
func (s *Service) DeadLetter(ctx context.Context, m kafka.Message) error {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO payments (id) VALUES ($1)", string(m.Key)); err != nil {
		_ = s.dlq.WriteMessages(ctx, m)
		return err
	}
	return nil
}

// A commented-out publish.
func (s *Service) Commented(ctx context.Context, o Order) error {
	_, err := s.db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", o.ID)
	// s.w.WriteMessages(ctx, kafka.Message{Topic: "orders"})
	return err
}

// A cache write then a publish: the cache is not the store of record.
func (s *Service) CacheThenPublish(ctx context.Context, o Order) error {
	s.rdb.Set(ctx, "order:"+o.ID, o.Status, time.Hour)
	s.rdb.Del(ctx, "cart:"+o.ID)
	return s.w.WriteMessages(ctx, kafka.Message{Topic: "orders"})
}

// An S3 upload then a publish.
func (s *Service) UploadThenPublish(ctx context.Context, o Order) error {
	if _, err := s.s3.PutObject(ctx, &s3.PutObjectInput{}); err != nil {
		return err
	}
	return s.w.WriteMessages(ctx, kafka.Message{Topic: "invoices"})
}

// A publish with no DB write on its path.
func (s *Service) Notify(ctx context.Context, o Order) error {
	var status string
	if err := s.db.QueryRowContext(ctx, "SELECT status FROM orders WHERE id = $1", o.ID).Scan(&status); err != nil {
		return err
	}
	return s.w.WriteMessages(ctx, kafka.Message{Topic: "orders", Value: []byte(status)})
}

// A relay: reads outbox rows, publishes, marks them published.
func (s *Service) Relay(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "SELECT id, payload FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT 100 FOR UPDATE SKIP LOCKED")
	if err != nil {
		return err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		var payload []byte
		if err := rows.Scan(&id, &payload); err != nil {
			return err
		}
		if err := s.w.WriteMessages(ctx, kafka.Message{Topic: "orders", Value: payload}); err != nil {
			return err
		}
		ids = append(ids, id)
	}
	_, err = s.db.ExecContext(ctx, "UPDATE outbox SET published_at = now() WHERE id = ANY($1)", ids)
	return err
}

// A cleanup that deletes published outbox rows and publishes a metric event.
func (s *Service) Cleanup(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM outbox WHERE published_at < now() - interval '7 days'"); err != nil {
		return errors.Join(err, s.w.WriteMessages(ctx, kafka.Message{Topic: "ops"}))
	}
	return nil
}

// A goroutine running a function that writes and publishes: reported once,
// inside the function, not again at the go statement.
func (s *Service) handleOne(ctx context.Context, o Order) {
	s.db.ExecContext(ctx, "UPDATE orders SET status = 'seen' WHERE id = $1", o.ID)
	s.w.WriteMessages(ctx, kafka.Message{Topic: "orders"}) // want `OBX001`
}

func (s *Service) Start(ctx context.Context) {
	go s.handleOne(ctx, Order{ID: "1"})
}

// An index loop over events after the write is not a retry loop: OBX001.
func (s *Service) PublishIndexed(ctx context.Context, orders []Order) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE orders SET status = 'shipped'"); err != nil {
		return err
	}
	for i := 0; i < len(orders); i++ {
		s.w.WriteMessages(ctx, kafka.Message{Topic: "orders", Key: []byte(orders[i].ID)}) // want `OBX001`
	}
	return nil
}
