// Package riverrows covers River's rows: Insert, InsertMany and
// InsertManyFast commit the job apart from the caller's write (OBX001);
// the Tx forms write it in the caller's transaction (silent), or in
// another one than the write (OBX006).
package riverrows

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

const upd = "UPDATE orders SET status = 'paid' WHERE id = $1"

type EmailArgs struct{ OrderID int64 }

func (EmailArgs) Kind() string { return "email" }

func jobs() []river.InsertManyParams { return []river.InsertManyParams{{Args: EmailArgs{}}} }

func posInsert(rc *river.Client[*sql.Tx]) {
	db.ExecContext(ctx, upd)
	rc.Insert(ctx, EmailArgs{OrderID: 1}, nil) // want "OBX001"
}

func posInsertMany(rc *river.Client[*sql.Tx]) {
	db.ExecContext(ctx, upd)
	rc.InsertMany(ctx, jobs())     // want "OBX001"
	rc.InsertManyFast(ctx, jobs()) // want "OBX001"
}

func posOtherTx(rc *river.Client[*sql.Tx]) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, upd); err != nil {
		return err
	}
	other, _ := db.BeginTx(ctx, nil)
	rc.InsertTx(ctx, other, EmailArgs{OrderID: 1}, nil) // want "OBX006"
	rc.InsertManyTx(ctx, other, jobs())                 // want "OBX006"
	rc.InsertManyFastTx(ctx, other, jobs())             // want "OBX006"
	other.Commit()
	return tx.Commit()
}

func negSameTx(rc *river.Client[*sql.Tx]) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, upd); err != nil {
		return err
	}
	if _, err := rc.InsertTx(ctx, tx, EmailArgs{OrderID: 1}, nil); err != nil {
		return err
	}
	if _, err := rc.InsertManyTx(ctx, tx, jobs()); err != nil {
		return err
	}
	if _, err := rc.InsertManyFastTx(ctx, tx, jobs()); err != nil {
		return err
	}
	return tx.Commit()
}

func negAlone(rc *river.Client[*sql.Tx]) {
	rc.Insert(ctx, EmailArgs{OrderID: 1}, nil)
	rc.InsertMany(ctx, jobs())
	rc.InsertManyFast(ctx, jobs())
}
