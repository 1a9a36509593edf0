// Package newrecord has a new... function that creates a record, not a
// component (keel's flows.newRun inserts the run it returns, then the
// orchestrator publishes its first event): its write is the request's.
// A constructor that builds a component keeps its start-up writes to
// itself.
package newrecord

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
	"gorm.io/gorm"
)

type Run struct {
	ID     string `json:"id" gorm:"primaryKey"`
	Status string `json:"status"`
}

func newRun(ctx context.Context, db *gorm.DB, name string) (*Run, error) {
	run := Run{Status: "NEW"}
	if err := db.WithContext(ctx).Create(&run).Error; err != nil {
		return nil, err
	}
	return &run, nil
}

type Orchestrator struct {
	db *gorm.DB
	nc *nats.Conn
}

func (o *Orchestrator) Start(ctx context.Context, name string) error {
	run, err := newRun(ctx, o.db, name)
	if err != nil {
		return err
	}
	return o.nc.Publish("flow.started", []byte(run.ID)) // want "OBX001"
}

// Service is a component; NewService seeds its table at start-up.
type Service struct {
	db *sql.DB
	nc *nats.Conn
}

func NewService(db *sql.DB, nc *nats.Conn) (*Service, error) {
	if _, err := db.Exec("INSERT INTO settings (k, v) VALUES ('mode', 'on') ON CONFLICT DO NOTHING"); err != nil {
		return nil, err
	}
	return &Service{db: db, nc: nc}, nil
}

func Wire(db *sql.DB, nc *nats.Conn) error {
	if _, err := NewService(db, nc); err != nil {
		return err
	}
	return nc.Publish("service.up", nil)
}
