// Package mqlib has a modular monolith's shape: a user service inserts the
// user, then announces the registration through a per-event producer
// interface, implemented by a generic typed producer over a message-queue
// library from another module whose Kafka implementation publishes.
package mqlib

import (
	"context"
	"database/sql"
	"time"

	"shapes/product/mqlib/event"
)

type UserService struct {
	db       *sql.DB
	producer event.RegistrationEventProducer
	audit    event.AuditProducer
}

// CreateWithPhone is a dual write (CLI: through RegistrationEventProducer
// to GeneralProducer[RegistrationEvent] to the library's Kafka producer).
func (s *UserService) CreateWithPhone(ctx context.Context, phone string) error {
	res, err := s.db.ExecContext(ctx, "INSERT INTO users (phone) VALUES (?)", phone)
	if err != nil {
		return err
	}
	id, _ := res.LastInsertId()
	return s.producer.Produce(ctx, event.RegistrationEvent{Uid: id})
}

// Rename audits through an interface nothing in the program implements:
// no finding, and the interface is named as unresolved.
func (s *UserService) Rename(ctx context.Context, id int64, name string) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE users SET name = ? WHERE id = ?", name, id); err != nil {
		return err
	}
	return s.audit.Produce(ctx, event.AuditEvent{Action: "rename"})
}

type CaseService struct {
	db   *sql.DB
	sync event.RegistrationEventProducer
}

// Save stores the case, then syncs it to search in a goroutine: OBX005
// (CLI). The library's producer retries in a loop that returns once the
// write succeeds: a retry, not a background worker's loop.
func (s *CaseService) Save(ctx context.Context, id int64) (int64, error) {
	_, err := s.db.ExecContext(ctx, "UPDATE cases SET status = 1 WHERE id = ?", id)
	if err == nil {
		go func() {
			cctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			s.syncCase(cctx, id)
		}()
	}
	return id, nil
}

func (s *CaseService) syncCase(ctx context.Context, id int64) {
	_ = s.sync.Produce(ctx, event.RegistrationEvent{Uid: id})
}
