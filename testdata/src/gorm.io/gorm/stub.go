package gorm

import "database/sql"

type DB struct{ Error error }
type Session struct{ NewDB bool }

func (db *DB) Create(value any) *DB                                            { return db }
func (db *DB) CreateInBatches(value any, batchSize int) *DB                    { return db }
func (db *DB) Save(value any) *DB                                              { return db }
func (db *DB) Update(column string, value any) *DB                             { return db }
func (db *DB) Updates(values any) *DB                                          { return db }
func (db *DB) UpdateColumn(column string, value any) *DB                       { return db }
func (db *DB) UpdateColumns(values any) *DB                                    { return db }
func (db *DB) Delete(value any, conds ...any) *DB                              { return db }
func (db *DB) Exec(sql string, values ...any) *DB                              { return db }
func (db *DB) FirstOrCreate(dest any, conds ...any) *DB                        { return db }
func (db *DB) First(dest any, conds ...any) *DB                                { return db }
func (db *DB) Find(dest any, conds ...any) *DB                                 { return db }
func (db *DB) Model(value any) *DB                                             { return db }
func (db *DB) Table(name string, args ...any) *DB                              { return db }
func (db *DB) Where(query any, args ...any) *DB                                { return db }
func (db *DB) WithContext(ctx any) *DB                                         { return db }
func (db *DB) Session(config *Session) *DB                                     { return db }
func (db *DB) Transaction(fc func(tx *DB) error, opts ...*sql.TxOptions) error { return nil }
func (db *DB) Begin(opts ...*sql.TxOptions) *DB                                { return db }
func (db *DB) Commit() *DB                                                     { return db }
func (db *DB) Rollback() *DB                                                   { return db }
