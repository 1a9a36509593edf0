package txshapes

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"

	"outbox"
)

// sqlx's Tx embeds *sql.Tx: tx.Tx is the same transaction, not another handle.
type SqlxService struct {
	sx *sqlx.DB
}

func (s *SqlxService) EmbeddedTx(ctx context.Context, id string) error {
	tx, err := s.sx.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		return err
	}
	if err := outbox.Insert(ctx, tx.Tx, outbox.Message{AggregateType: "orders"}); err != nil {
		return err
	}
	return tx.Commit()
}

// The write goes through the embedded *sql.Tx, the outbox row through the sqlx.Tx.
func (s *SqlxService) EmbeddedWrite(ctx context.Context, id string) error {
	tx := s.sx.MustBeginTx(ctx, nil)
	defer tx.Rollback()
	if err := markPaid(ctx, tx.Tx, id); err != nil {
		return err
	}
	if err := outbox.Insert(ctx, tx, outbox.Message{AggregateType: "orders"}); err != nil {
		return err
	}
	return tx.Commit()
}

func markPaid(ctx context.Context, tx *sql.Tx, id string) error {
	_, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id)
	return err
}

// The embedded *sql.DB of the pool is still not the transaction: OBX006.
func (s *SqlxService) EmbeddedPool(ctx context.Context, id string) error {
	tx, err := s.sx.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1", id); err != nil {
		return err
	}
	if err := outbox.Insert(ctx, s.sx.DB, outbox.Message{AggregateType: "orders"}); err != nil { // want `OBX006`
		return err
	}
	return tx.Commit()
}
