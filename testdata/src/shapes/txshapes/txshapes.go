// Package txshapes holds the transaction shapes: publish while the
// transaction is open, commit in a callee then publish, sqlc WithTx, outbox
// rows on the same or another handle.
package txshapes

import (
	"context"
	"database/sql"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"
	"gorm.io/gorm"

	"outbox"
	"shapes/txshapes/db"
)

type Service struct {
	db *sql.DB
	q  *db.Queries
	nc *nats.Conn
	gm *gorm.DB
}

// Publish while the transaction is still open, commit afterwards.
func (s *Service) PublishInTx(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		return err
	}
	if err := s.nc.Publish("orders.paid", []byte(id)); err != nil { // want `OBX003 publish \(\*nats.Conn\).Publish inside the transaction of \(\*sql.Tx\).ExecContext at txshapes.go:32, before it commits`
		return err
	}
	return tx.Commit()
}

// The write commits in a callee; the publish follows outside.
func (s *Service) save(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Service) Place(ctx context.Context, id string) error {
	if err := s.save(ctx, id); err != nil {
		return err
	}
	return s.nc.Publish("orders.placed", []byte(id)) // want `OBX002 publish .* after the transaction of \(\*sql.Tx\).ExecContext \(via \(\*txshapes.Service\).save\) at txshapes.go:55 committed`
}

// A repository method writing on the caller's transaction, publish before commit.
func (s *Service) saveTx(ctx context.Context, tx *sql.Tx, id string) error {
	_, err := tx.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id)
	return err
}

func (s *Service) PlaceTx(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.saveTx(ctx, tx, id); err != nil {
		return err
	}
	s.nc.Publish("orders.placed", []byte(id)) // want `OBX003`
	return tx.Commit()
}

// sqlc: WithTx binds the queries to the transaction.
func (s *Service) CreateSqlc(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	qtx := s.q.WithTx(tx)
	if err := qtx.CreateOrder(ctx, id, "new"); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return s.nc.Publish("orders.created", []byte(id)) // want `OBX002 .*via \(\*db.Queries\).CreateOrder`
}

// sqlc without a transaction: the query autocommits.
func (s *Service) CreateSqlcAuto(ctx context.Context, id string) error {
	if err := s.q.CreateOrder(ctx, id, "new"); err != nil {
		return err
	}
	return s.nc.Publish("orders.created", []byte(id)) // want `OBX001 .*via \(\*db.Queries\).CreateOrder`
}

// Negatives: the outbox row in the same transaction.
func (s *Service) CreateWithOutbox(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	qtx := s.q.WithTx(tx)
	if err := qtx.CreateOrder(ctx, id, "new"); err != nil {
		return err
	}
	if err := outbox.Insert(ctx, tx, outbox.Message{AggregateType: "orders", AggregateID: id, EventType: "OrderCreated"}); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Service) ReadSqlc(ctx context.Context, id string) error {
	st, err := s.q.GetOrder(ctx, id)
	if err != nil {
		return err
	}
	return s.nc.Publish("orders.viewed", []byte(st))
}

// The outbox row on another handle: a new gorm session, the pool instead of the transaction.
func (s *Service) GormOtherSession(ctx context.Context, id string) error {
	return s.gm.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&Order{ID: id}).Error; err != nil {
			return err
		}
		return s.gm.Create(&OutboxMessage{ID: id}).Error // want `OBX006 outbox insert .* is not in the transaction of the DB write \(\*gorm.DB\).Create`
	})
}

func (s *Service) OtherConn(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		return err
	}
	if err := outbox.Insert(ctx, s.db, outbox.Message{AggregateType: "orders"}); err != nil { // want `OBX006`
		return err
	}
	return tx.Commit()
}

// A publisher wired to write the outbox row in the caller's transaction
// (watermill-sql style): not a dual write.
func NewTxPublisher(tx *sql.Tx) message.Publisher { return nil }

func (s *Service) WiredPublisher(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		return err
	}
	pub := NewTxPublisher(tx)
	if err := pub.Publish("orders", message.NewMessage(id, nil)); err != nil {
		return err
	}
	return tx.Commit()
}

type Order struct{ ID string }

type OutboxMessage struct{ ID string }

// A publisher struct built around the transaction writes the outbox row there.
type TxEvents struct{ tx *sql.Tx }

func (e *TxEvents) Publish(ctx context.Context, id string) error {
	return outbox.Insert(ctx, e.tx, outbox.Message{AggregateType: "orders", AggregateID: id})
}

func (s *Service) StructPublisher(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		return err
	}
	events := &TxEvents{tx: tx}
	if err := events.Publish(ctx, id); err != nil {
		return err
	}
	return tx.Commit()
}

// The transaction travels in the context: the outbox insert's handle cannot
// be followed, so it is not reported.
type ctxKey struct{}

func txFrom(ctx context.Context) *sql.Tx { tx, _ := ctx.Value(ctxKey{}).(*sql.Tx); return tx }

func (s *Service) ContextTx(ctx context.Context, id string) error {
	if _, err := txFrom(ctx).ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		return err
	}
	return outbox.Insert(ctx, txFrom(ctx), outbox.Message{AggregateType: "orders", AggregateID: id})
}
