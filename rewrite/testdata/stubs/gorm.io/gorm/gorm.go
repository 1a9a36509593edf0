// Package gorm is a stub of gorm.io/gorm for rewrite tests.
package gorm

import (
	"context"
	"database/sql"
)

type DB struct {
	Error        error
	RowsAffected int64
}

func (db *DB) WithContext(ctx context.Context) *DB                             { return db }
func (db *DB) Create(value interface{}) *DB                                    { return db }
func (db *DB) Save(value interface{}) *DB                                      { return db }
func (db *DB) CreateInBatches(value interface{}, batchSize int) *DB            { return db }
func (db *DB) Delete(value interface{}, conds ...interface{}) *DB              { return db }
func (db *DB) Model(value interface{}) *DB                                     { return db }
func (db *DB) Update(column string, value interface{}) *DB                     { return db }
func (db *DB) Updates(values interface{}) *DB                                  { return db }
func (db *DB) Exec(sql string, values ...interface{}) *DB                      { return db }
func (db *DB) Where(query interface{}, args ...interface{}) *DB                { return db }
func (db *DB) First(dest interface{}, conds ...interface{}) *DB                { return db }
func (db *DB) Transaction(fc func(tx *DB) error, opts ...*sql.TxOptions) error { return nil }
