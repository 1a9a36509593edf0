// Package paths pairs only what one path runs together: a publish and the
// write it announces. What is not a partner: a later unrelated write after
// a self-contained callee, another loop iteration's callee, a write only on
// an error branch, a deferred compensation.
package paths

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

type Service struct {
	db *sql.DB
	nc *nats.Conn
}

// CreateAccount inserts and publishes inside itself: its own finding.
func (s *Service) CreateAccount(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO accounts (id) VALUES ($1)", id); err != nil {
		return err
	}
	return s.nc.Publish("account.created", []byte(id)) // want `OBX001`
}

// Register creates the account, then a device: the account's event does
// not announce the device.
func (s *Service) Register(ctx context.Context, id string) error {
	if err := s.CreateAccount(ctx, id); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO devices (account) VALUES ($1)", id)
	return err
}

// process writes then publishes: its own finding.
func (s *Service) process(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE jobs SET done = true WHERE id = $1", id); err != nil {
		return err
	}
	return s.nc.Publish("job.done", []byte(id)) // want `OBX001`
}

// ProcessAll loops over a self-contained callee: one iteration's publish
// and the next one's write are not partners.
func (s *Service) ProcessAll(ctx context.Context, ids []string) error {
	for _, id := range ids {
		if err := s.process(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) failure(ctx context.Context, dest string) {
	s.db.ExecContext(ctx, "UPDATE destinations SET failures = failures + 1 WHERE name = $1", dest)
}

// Send publishes and counts a failure on the error branch only.
func (s *Service) Send(ctx context.Context, dest string, b []byte) error {
	err := s.nc.Publish(dest, b)
	if err != nil {
		s.failure(ctx, dest)
		return err
	}
	return nil
}

// Reserve publishes; a deferred compensation removes the reservation if it failed.
func (s *Service) Reserve(ctx context.Context, id string) (err error) {
	defer func() {
		if err != nil {
			s.db.ExecContext(ctx, "DELETE FROM reservations WHERE id = $1", id)
		}
	}()
	return s.nc.Publish("reservation.requested", []byte(id))
}

// Index pages through what it retrieved: a loop over pages, not a retry
// loop ("retrieved" is not "retry"), so the rule is OBX001, not OBX005.
func (s *Service) Index(ctx context.Context, pages int) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE index_runs SET started = now()"); err != nil {
		return err
	}
	retrieved := 0
	for page := 0; page < pages; page++ {
		retrieved++
		s.nc.Publish("index.page", nil) // want `OBX001`
	}
	return nil
}
