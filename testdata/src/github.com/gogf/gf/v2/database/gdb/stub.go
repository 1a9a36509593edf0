package gdb

import (
	"context"
	"database/sql"
)

type Result []map[string]any

// DB is the database interface g.DB() returns.
type DB interface {
	Model(tableNameOrStruct ...any) *Model
	Query(ctx context.Context, sql string, args ...any) (Result, error)
	Exec(ctx context.Context, sql string, args ...any) (sql.Result, error)
	Insert(ctx context.Context, table string, data any, batch ...int) (sql.Result, error)
	InsertIgnore(ctx context.Context, table string, data any, batch ...int) (sql.Result, error)
	InsertAndGetId(ctx context.Context, table string, data any, batch ...int) (int64, error)
	Replace(ctx context.Context, table string, data any, batch ...int) (sql.Result, error)
	Save(ctx context.Context, table string, data any, batch ...int) (sql.Result, error)
	Update(ctx context.Context, table string, data any, condition any, args ...any) (sql.Result, error)
	Delete(ctx context.Context, table string, condition any, args ...any) (sql.Result, error)
	Begin(ctx context.Context) (TX, error)
	Transaction(ctx context.Context, f func(ctx context.Context, tx TX) error) error
}

// TX is an open transaction.
type TX interface {
	Model(tableNameQueryOrStruct ...any) *Model
	Commit() error
	Rollback() error
	Transaction(ctx context.Context, f func(ctx context.Context, tx TX) error) error
	Query(sql string, args ...any) (Result, error)
	Exec(sql string, args ...any) (sql.Result, error)
	Insert(table string, data any, batch ...int) (sql.Result, error)
	InsertIgnore(table string, data any, batch ...int) (sql.Result, error)
	InsertAndGetId(table string, data any, batch ...int) (int64, error)
	Replace(table string, data any, batch ...int) (sql.Result, error)
	Save(table string, data any, batch ...int) (sql.Result, error)
	Update(table string, data any, condition any, args ...any) (sql.Result, error)
	Delete(table string, condition any, args ...any) (sql.Result, error)
}

type Core struct{}

func (c *Core) Model(tableNameOrStruct ...any) *Model { return &Model{} }
func (c *Core) Query(ctx context.Context, sql string, args ...any) (Result, error) {
	return nil, nil
}
func (c *Core) Exec(ctx context.Context, sql string, args ...any) (sql.Result, error) {
	return nil, nil
}
func (c *Core) Insert(ctx context.Context, table string, data any, batch ...int) (sql.Result, error) {
	return nil, nil
}
func (c *Core) InsertIgnore(ctx context.Context, table string, data any, batch ...int) (sql.Result, error) {
	return nil, nil
}
func (c *Core) InsertAndGetId(ctx context.Context, table string, data any, batch ...int) (int64, error) {
	return 0, nil
}
func (c *Core) Replace(ctx context.Context, table string, data any, batch ...int) (sql.Result, error) {
	return nil, nil
}
func (c *Core) Save(ctx context.Context, table string, data any, batch ...int) (sql.Result, error) {
	return nil, nil
}
func (c *Core) Update(ctx context.Context, table string, data any, condition any, args ...any) (sql.Result, error) {
	return nil, nil
}
func (c *Core) Delete(ctx context.Context, table string, condition any, args ...any) (sql.Result, error) {
	return nil, nil
}
func (c *Core) Begin(ctx context.Context) (TX, error) { return &TXCore{}, nil }
func (c *Core) Transaction(ctx context.Context, f func(ctx context.Context, tx TX) error) error {
	return f(ctx, &TXCore{})
}

type TXCore struct{}

func (tx *TXCore) Model(tableNameQueryOrStruct ...any) *Model { return &Model{} }
func (tx *TXCore) Commit() error                              { return nil }
func (tx *TXCore) Rollback() error                            { return nil }
func (tx *TXCore) Transaction(ctx context.Context, f func(ctx context.Context, tx TX) error) error {
	return f(ctx, tx)
}
func (tx *TXCore) Query(sql string, args ...any) (Result, error)    { return nil, nil }
func (tx *TXCore) Exec(sql string, args ...any) (sql.Result, error) { return nil, nil }
func (tx *TXCore) Insert(table string, data any, batch ...int) (sql.Result, error) {
	return nil, nil
}
func (tx *TXCore) InsertIgnore(table string, data any, batch ...int) (sql.Result, error) {
	return nil, nil
}
func (tx *TXCore) InsertAndGetId(table string, data any, batch ...int) (int64, error) {
	return 0, nil
}
func (tx *TXCore) Replace(table string, data any, batch ...int) (sql.Result, error) {
	return nil, nil
}
func (tx *TXCore) Save(table string, data any, batch ...int) (sql.Result, error) { return nil, nil }
func (tx *TXCore) Update(table string, data any, condition any, args ...any) (sql.Result, error) {
	return nil, nil
}
func (tx *TXCore) Delete(table string, condition any, args ...any) (sql.Result, error) {
	return nil, nil
}

// Model is the chained query builder.
type Model struct{}

func (m *Model) Ctx(ctx context.Context) *Model                 { return m }
func (m *Model) TX(tx TX) *Model                                { return m }
func (m *Model) Data(data ...any) *Model                        { return m }
func (m *Model) Where(where any, args ...any) *Model            { return m }
func (m *Model) All(where ...any) (Result, error)               { return nil, nil }
func (m *Model) Scan(pointer any, where ...any) error           { return nil }
func (m *Model) Count(where ...any) (int, error)                { return 0, nil }
func (m *Model) Insert(data ...any) (sql.Result, error)         { return nil, nil }
func (m *Model) InsertAndGetId(data ...any) (int64, error)      { return 0, nil }
func (m *Model) InsertIgnore(data ...any) (sql.Result, error)   { return nil, nil }
func (m *Model) Replace(data ...any) (sql.Result, error)        { return nil, nil }
func (m *Model) Save(data ...any) (sql.Result, error)           { return nil, nil }
func (m *Model) Update(dataAndWhere ...any) (sql.Result, error) { return nil, nil }
func (m *Model) UpdateAndGetAffected(dataAndWhere ...any) (int64, error) {
	return 0, nil
}
func (m *Model) Delete(where ...any) (sql.Result, error)                 { return nil, nil }
func (m *Model) Increment(column string, amount any) (sql.Result, error) { return nil, nil }
func (m *Model) Decrement(column string, amount any) (sql.Result, error) { return nil, nil }
func (m *Model) Transaction(ctx context.Context, f func(ctx context.Context, tx TX) error) error {
	return f(ctx, &TXCore{})
}
