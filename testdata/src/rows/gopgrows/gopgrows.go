// Package gopgrows covers go-pg v10's rows: the ORM query's writes on the
// pool (OBX001) and on a transaction (OBX003), the raw Exec and Query
// families, and Begin/Commit/Rollback and RunInTransaction.
package gopgrows

import (
	"context"

	"github.com/go-pg/pg/v10"
	"github.com/segmentio/kafka-go"
)

var (
	ctx = context.Background()
	w   *kafka.Writer
)

func pub() { w.WriteMessages(ctx, kafka.Message{Topic: "orders"}) }

const (
	upd = "UPDATE orders SET status = 'paid' WHERE id = ?"
	ins = "INSERT INTO orders (id) VALUES (?) RETURNING id"
	sel = "SELECT id FROM orders WHERE id = ?"
)

type Order struct{ ID int64 }

func posInsert(db *pg.DB) {
	db.Model(&Order{}).Insert()
	pub() // want "OBX001"
}

func negInsert(db *pg.DB) {
	db.Model(&Order{}).Insert()
}

func posSelectOrInsert(db *pg.DB) {
	db.ModelContext(ctx, &Order{}).Where("id = ?", 1).SelectOrInsert()
	pub() // want "OBX001"
}

func negSelectOrInsert(db *pg.DB) {
	db.ModelContext(ctx, &Order{}).Where("id = ?", 1).SelectOrInsert()
}

func posUpdate(db *pg.DB) {
	db.Model(&Order{}).WherePK().Update()
	db.Model(&Order{}).WherePK().UpdateNotZero()
	pub() // want "OBX001"
}

func negUpdate(db *pg.DB) {
	db.Model(&Order{}).WherePK().Update()
	db.Model(&Order{}).WherePK().UpdateNotZero()
}

func posDelete(db *pg.DB) {
	db.Model(&Order{}).WherePK().Delete()
	db.Model(&Order{}).WherePK().ForceDelete()
	pub() // want "OBX001"
}

func negDelete(db *pg.DB) {
	db.Model(&Order{}).WherePK().Delete()
	db.Model(&Order{}).WherePK().ForceDelete()
}

func posQueryExec(db *pg.DB) {
	db.Model(&Order{}).Exec(upd)
	db.Model(&Order{}).ExecOne(upd)
	pub() // want "OBX001"
}

func negQueryExec(db *pg.DB) {
	db.Model(&Order{}).Exec(upd)
	db.Model(&Order{}).ExecOne(upd)
}

func posExec(db *pg.DB) {
	db.Exec(upd)
	db.ExecOne(upd)
	db.ExecContext(ctx, upd)
	db.ExecOneContext(ctx, upd)
	pub() // want "OBX001"
}

func negExec(db *pg.DB) {
	db.Exec(upd)
	db.ExecOne(upd)
	db.ExecContext(ctx, upd)
	db.ExecOneContext(ctx, upd)
}

// INSERT ... RETURNING through Query is a write; a SELECT is not.
func posQuery(db *pg.DB) {
	var id int64
	db.Query(&id, ins)
	db.QueryOne(&id, ins)
	db.QueryContext(ctx, &id, ins)
	db.QueryOneContext(ctx, &id, ins)
	pub() // want "OBX001"
}

func negQuery(db *pg.DB) {
	var id int64
	db.Query(&id, sel)
	db.QueryOne(&id, sel)
	db.QueryContext(ctx, &id, sel)
	db.QueryOneContext(ctx, &id, sel)
	pub()
}

func posTx(db *pg.DB) {
	tx, _ := db.Begin()
	tx.Model(&Order{}).Insert()
	tx.Exec(upd)
	tx.ExecOne(upd)
	tx.ExecContext(ctx, upd)
	tx.ExecOneContext(ctx, upd)
	tx.Commit()
	pub() // want "OBX002"
}

func posTxOpen(db *pg.DB) {
	tx, _ := db.BeginContext(ctx)
	var id int64
	tx.Query(&id, ins)
	tx.QueryOne(&id, ins)
	tx.QueryContext(ctx, &id, ins)
	tx.QueryOneContext(ctx, &id, ins)
	pub() // want "OBX003"
	tx.RollbackContext(ctx)
}

func posTxRollback(db *pg.DB) {
	tx, _ := db.Begin()
	tx.ModelContext(ctx, &Order{}).Insert()
	pub() // want "OBX003"
	tx.Rollback()
}

func posTxCommitContext(db *pg.DB) {
	tx, _ := db.BeginContext(ctx)
	tx.Model(&Order{}).Insert()
	tx.CommitContext(ctx)
	pub() // want "OBX002"
}

func negTx(db *pg.DB) {
	tx, _ := db.Begin()
	tx.Model(&Order{}).Insert()
	tx.Exec(upd)
	tx.ExecOne(upd)
	tx.ExecContext(ctx, upd)
	tx.ExecOneContext(ctx, upd)
	tx.Rollback()
	tx2, _ := db.BeginContext(ctx)
	var id int64
	tx2.Query(&id, ins)
	tx2.QueryOne(&id, ins)
	tx2.QueryContext(ctx, &id, ins)
	tx2.QueryOneContext(ctx, &id, ins)
	tx2.Commit()
	tx2.CommitContext(ctx)
	tx2.RollbackContext(ctx)
}

func posRunInTransaction(db *pg.DB) {
	db.RunInTransaction(ctx, func(tx *pg.Tx) error {
		_, err := tx.Model(&Order{}).Insert()
		return err
	})
	pub() // want "OBX002"
}

func posTxRunInTransaction(tx *pg.Tx) {
	tx.RunInTransaction(ctx, func(tx *pg.Tx) error {
		_, err := tx.Model(&Order{}).Insert()
		return err
	})
	pub() // want "OBX002"
}

func negRunInTransaction(db *pg.DB, tx *pg.Tx) {
	db.RunInTransaction(ctx, func(tx *pg.Tx) error {
		_, err := tx.Model(&Order{}).Insert()
		return err
	})
	tx.RunInTransaction(ctx, func(tx *pg.Tx) error {
		_, err := tx.Model(&Order{}).Insert()
		return err
	})
}
