// Package pg stubs github.com/go-pg/pg/v10: DB's methods are promoted from
// its unexported baseDB, as in the real package.
package pg

import (
	"context"

	"github.com/go-pg/pg/v10/orm"
)

type (
	Result = orm.Result
	Query  = orm.Query
)

type Options struct{ Addr, User, Database string }

type baseDB struct{}

type DB struct{ *baseDB }

type Tx struct{}

func Connect(opt *Options) *DB { return &DB{&baseDB{}} }

func (db *baseDB) Exec(query interface{}, params ...interface{}) (Result, error) { return nil, nil }
func (db *baseDB) ExecContext(c context.Context, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (db *baseDB) ExecOne(query interface{}, params ...interface{}) (Result, error) { return nil, nil }
func (db *baseDB) ExecOneContext(c context.Context, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (db *baseDB) Query(model, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (db *baseDB) QueryContext(c context.Context, model, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (db *baseDB) QueryOne(model, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (db *baseDB) QueryOneContext(c context.Context, model, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (db *baseDB) Model(model ...interface{}) *Query                           { return &Query{} }
func (db *baseDB) ModelContext(c context.Context, model ...interface{}) *Query { return &Query{} }
func (db *baseDB) Begin() (*Tx, error)                                         { return &Tx{}, nil }
func (db *baseDB) BeginContext(ctx context.Context) (*Tx, error)               { return &Tx{}, nil }
func (db *baseDB) RunInTransaction(ctx context.Context, fn func(*Tx) error) error {
	return fn(&Tx{})
}

func (tx *Tx) Exec(query interface{}, params ...interface{}) (Result, error) { return nil, nil }
func (tx *Tx) ExecContext(c context.Context, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (tx *Tx) ExecOne(query interface{}, params ...interface{}) (Result, error) { return nil, nil }
func (tx *Tx) ExecOneContext(c context.Context, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (tx *Tx) Query(model, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (tx *Tx) QueryContext(c context.Context, model, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (tx *Tx) QueryOne(model, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (tx *Tx) QueryOneContext(c context.Context, model, query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (tx *Tx) Model(model ...interface{}) *Query                           { return &Query{} }
func (tx *Tx) ModelContext(c context.Context, model ...interface{}) *Query { return &Query{} }
func (tx *Tx) RunInTransaction(ctx context.Context, fn func(*Tx) error) error {
	return fn(tx)
}
func (tx *Tx) Commit() error                             { return nil }
func (tx *Tx) CommitContext(ctx context.Context) error   { return nil }
func (tx *Tx) Rollback() error                           { return nil }
func (tx *Tx) RollbackContext(ctx context.Context) error { return nil }
