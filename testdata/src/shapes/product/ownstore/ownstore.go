// Package ownstore writes through the team's own interface over the
// MongoDB driver's collection (brigade's mongodb.Collection, there so tests
// can fake it): no type of the module implements it, *mongo.Collection
// does, so InsertOne through it is a MongoDB write.
package ownstore

import (
	"context"

	"github.com/nats-io/nats.go"
	"go.mongodb.org/mongo-driver/mongo"
)

// Collection is the subset of *mongo.Collection the stores use.
type Collection interface {
	InsertOne(ctx context.Context, doc any) (any, error)
}

type Event struct{ ID string }

type EventsStore struct{ collection Collection }

func NewEventsStore(db *mongo.Database) *EventsStore {
	return &EventsStore{collection: db.Collection("events")}
}

func (s *EventsStore) Create(ctx context.Context, e Event) error {
	_, err := s.collection.InsertOne(ctx, e)
	return err
}

type Service struct {
	store *EventsStore
	nc    *nats.Conn
}

// CreateEvent stores the event, then queues its worker: a dual write.
func (s *Service) CreateEvent(ctx context.Context, e Event) error {
	if err := s.store.Create(ctx, e); err != nil {
		return err
	}
	return s.nc.Publish("workers", []byte(e.ID)) // want `OBX001`
}

// Announce only publishes: nothing written on its path.
func (s *Service) Announce(e Event) error {
	return s.nc.Publish("events", []byte(e.ID))
}
