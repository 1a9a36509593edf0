// Package gorm stubs jinzhu/gorm (gorm v1): the writes and transaction
// calls the catalog names, with their real signatures.
package gorm

type DB struct{ Error error }

func (s *DB) Model(value interface{}) *DB                                  { return s }
func (s *DB) Table(name string) *DB                                        { return s }
func (s *DB) Where(query interface{}, args ...interface{}) *DB             { return s }
func (s *DB) First(out interface{}, where ...interface{}) *DB              { return s }
func (s *DB) Create(value interface{}) *DB                                 { return s }
func (s *DB) Save(value interface{}) *DB                                   { return s }
func (s *DB) Update(attrs ...interface{}) *DB                              { return s }
func (s *DB) Updates(values interface{}, ignoreProtectedAttrs ...bool) *DB { return s }
func (s *DB) UpdateColumn(attrs ...interface{}) *DB                        { return s }
func (s *DB) UpdateColumns(values interface{}) *DB                         { return s }
func (s *DB) Delete(value interface{}, where ...interface{}) *DB           { return s }
func (s *DB) FirstOrCreate(out interface{}, where ...interface{}) *DB      { return s }
func (s *DB) Exec(sql string, values ...interface{}) *DB                   { return s }
func (s *DB) Begin() *DB                                                   { return s }
func (s *DB) Commit() *DB                                                  { return s }
func (s *DB) Rollback() *DB                                                { return s }
func (s *DB) Transaction(fc func(tx *DB) error) (err error)                { return fc(s) }
