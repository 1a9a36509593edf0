// Package app is the shape fix's cross-function rewrite leaves (issue 18):
// the service's body runs in outbox.Run, the repository writes through
// outbox.SQL(ctx, db), and the publisher wrapper's broker call is guarded by
// outbox.Enqueue. The outbox package beside it is the real generated writer
// (rendered from the templates). A re-scan is clean there; a rewrite that
// lost a piece is reported again (the mutation cases below), and the
// guard's direct path stays a dual write for a caller outside a unit.
package app

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"

	"shapes/product/unitofwork/outbox"
)

// Repo writes through the unit's accessor.
type Repo struct{ db *sql.DB }

func (r *Repo) Create(ctx context.Context, id string) error {
	_, err := outbox.SQL(ctx, r.db).ExecContext(ctx, `INSERT INTO orders (id) VALUES ($1)`, id)
	return err
}

// RawRepo lost the accessor: its write autocommits on the pool.
type RawRepo struct{ db *sql.DB }

func (r *RawRepo) Create(ctx context.Context, id string) error {
	_, err := r.db.ExecContext(ctx, `INSERT INTO orders (id) VALUES ($1)`, id)
	return err
}

// HalfRepo lost the accessor on its second write only: that write
// autocommits on the pool, outside the unit the first one joins.
type HalfRepo struct{ db *sql.DB }

func (r *HalfRepo) Create(ctx context.Context, id string) error {
	if _, err := outbox.SQL(ctx, r.db).ExecContext(ctx, `INSERT INTO orders (id) VALUES ($1)`, id); err != nil {
		return err
	}
	_, err := r.db.ExecContext(ctx, `INSERT INTO audit (id) VALUES ($1)`, id)
	return err
}

// Events is the guarded publisher wrapper.
type Events struct{ nc *nats.Conn }

func (p *Events) Publish(ctx context.Context, subject, key string, body []byte) error {
	return outbox.Enqueue(ctx, outbox.Message{AggregateType: subject, AggregateID: key, EventType: "OrderPlaced", Payload: body},
		func(ctx context.Context) error { return p.nc.Publish(subject, body) })
}

// HalfEvents guards its first publish and lost the guard of its second.
type HalfEvents struct{ nc *nats.Conn }

func (p *HalfEvents) Publish(ctx context.Context, subject, key string, body []byte) error {
	if err := outbox.Enqueue(ctx, outbox.Message{AggregateType: subject, AggregateID: key, EventType: "OrderPlaced", Payload: body},
		func(ctx context.Context) error { return p.nc.Publish(subject, body) }); err != nil {
		return err
	}
	return p.nc.Publish(subject+".audit", body)
}

// DirectEvents lost the guard.
type DirectEvents struct{ nc *nats.Conn }

func (p *DirectEvents) Publish(ctx context.Context, subject, key string, body []byte) error {
	return p.nc.Publish(subject, body)
}

// OwnTxRepo begins its own transaction, joined to the unit (BeginSQL,
// CommitSQL: a savepoint inside the unit's transaction).
type OwnTxRepo struct{ db *sql.DB }

func (r *OwnTxRepo) Create(ctx context.Context, id string) error {
	tx, err := outbox.BeginSQL(ctx, r.db, nil)
	if err != nil {
		return err
	}
	defer outbox.RollbackSQL(ctx, tx)
	if _, err := tx.ExecContext(ctx, `INSERT INTO orders (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return outbox.CommitSQL(ctx, tx)
}

// LostBeginRepo lost BeginSQL: its own transaction commits apart.
type LostBeginRepo struct{ db *sql.DB }

func (r *LostBeginRepo) Create(ctx context.Context, id string) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer outbox.RollbackSQL(ctx, tx)
	if _, err := tx.ExecContext(ctx, `INSERT INTO orders (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return outbox.CommitSQL(ctx, tx)
}

// DBTX, Queries and New are sqlc's shape.
type DBTX interface {
	ExecContext(ctx context.Context, query string, args ...interface{}) (sql.Result, error)
}

type Queries struct{ db DBTX }

func New(db DBTX) *Queries { return &Queries{db: db} }

func (q *Queries) CreateOrder(ctx context.Context, id string) error {
	_, err := q.db.ExecContext(ctx, `INSERT INTO orders (id) VALUES ($1)`, id)
	return err
}

// SqlcRepo builds its Queries on the unit's handle, inline and in a variable.
type SqlcRepo struct{ db *sql.DB }

func (r *SqlcRepo) Create(ctx context.Context, id string) error {
	if err := New(outbox.SQL(ctx, r.db)).CreateOrder(ctx, id); err != nil {
		return err
	}
	q := New(outbox.SQL(ctx, r.db))
	return q.CreateOrder(ctx, id+"-copy")
}

// SqlcLostRepo lost the accessor: New(r.db) autocommits on the pool.
type SqlcLostRepo struct{ db *sql.DB }

func (r *SqlcLostRepo) Create(ctx context.Context, id string) error {
	return New(r.db).CreateOrder(ctx, id)
}

type Service struct {
	sqlc     *SqlcRepo
	sqlcLost *SqlcLostRepo
	repo     *Repo
	raw      *RawRepo
	own      *OwnTxRepo
	lost     *LostBeginRepo
	events   *Events
	direct   *DirectEvents
	half     *HalfRepo
	halfEv   *HalfEvents
}

// PlaceHalf: one of the repository's two writes is outside the unit.
func (s *Service) PlaceHalf(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.half.Create(ctx, id); err != nil {
			return err
		}
		return s.events.Publish(ctx, "orders", id, []byte(id)) // want `OBX006`
	})
}

// PlaceHalfEvents: one of the wrapper's two publishes is not guarded.
func (s *Service) PlaceHalfEvents(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.repo.Create(ctx, id); err != nil {
			return err
		}
		return s.halfEv.Publish(ctx, "orders", id, []byte(id)) // want `OBX003`
	})
}

// PlaceOwnTx: the repository's own transaction joined the unit: clean.
func (s *Service) PlaceOwnTx(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.own.Create(ctx, id); err != nil {
			return err
		}
		return s.events.Publish(ctx, "orders", id, []byte(id))
	})
}

// PlaceOwnTxLost: the repository's transaction is not the unit's.
func (s *Service) PlaceOwnTxLost(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.lost.Create(ctx, id); err != nil {
			return err
		}
		return s.events.Publish(ctx, "orders", id, []byte(id)) // want `OBX006`
	})
}

// PlaceOwnTxDirect: the publish after the joined transaction is not guarded.
func (s *Service) PlaceOwnTxDirect(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.own.Create(ctx, id); err != nil {
			return err
		}
		return s.direct.Publish(ctx, "orders", id, []byte(id)) // want `OBX003`
	})
}

// Place is what fix leaves: clean.
func (s *Service) Place(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.repo.Create(ctx, id); err != nil {
			return err
		}
		return s.events.Publish(ctx, "orders", id, []byte(id))
	})
}

// PlaceRaw: the repository's write is not on the unit's transaction.
func (s *Service) PlaceRaw(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.raw.Create(ctx, id); err != nil {
			return err
		}
		return s.events.Publish(ctx, "orders", id, []byte(id)) // want `OBX006`
	})
}

// PlaceDirect: the publish is not guarded, so it runs inside the open unit.
func (s *Service) PlaceDirect(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.repo.Create(ctx, id); err != nil {
			return err
		}
		return s.direct.Publish(ctx, "orders", id, []byte(id)) // want `OBX003`
	})
}

// Audit calls the guarded wrapper outside any unit: it publishes directly
// after an autocommitted write.
func Audit(ctx context.Context, db *sql.DB, ev *Events, id string) error {
	if _, err := db.ExecContext(ctx, `INSERT INTO audit (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return ev.Publish(ctx, "audit", id, nil) // want `OBX001`
}

// PlaceSqlc: sqlc's Queries on the unit's handle: clean.
func (s *Service) PlaceSqlc(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.sqlc.Create(ctx, id); err != nil {
			return err
		}
		return s.events.Publish(ctx, "orders", id, []byte(id))
	})
}

// PlaceSqlcLost: sqlc's Queries on the pool.
func (s *Service) PlaceSqlcLost(ctx context.Context, id string) error {
	return outbox.Run(ctx, func(ctx context.Context) error {
		if err := s.sqlcLost.Create(ctx, id); err != nil {
			return err
		}
		return s.events.Publish(ctx, "orders", id, []byte(id)) // want `OBX006`
	})
}
