// Package orm stubs github.com/go-pg/pg/v10/orm: the query builder whose
// Insert, Update and Delete run the statement.
package orm

type Result interface {
	RowsAffected() int
	RowsReturned() int
}

type Query struct{}

func (q *Query) Where(condition string, params ...interface{}) *Query { return q }
func (q *Query) WherePK() *Query                                      { return q }
func (q *Query) Set(set string, params ...interface{}) *Query         { return q }
func (q *Query) Column(columns ...string) *Query                      { return q }
func (q *Query) OnConflict(s string, params ...interface{}) *Query    { return q }
func (q *Query) Returning(s string, params ...interface{}) *Query     { return q }
func (q *Query) Select(values ...interface{}) error                   { return nil }
func (q *Query) Count() (int, error)                                  { return 0, nil }
func (q *Query) Insert(values ...interface{}) (Result, error)         { return nil, nil }
func (q *Query) SelectOrInsert(values ...interface{}) (bool, error)   { return false, nil }
func (q *Query) Update(scan ...interface{}) (Result, error)           { return nil, nil }
func (q *Query) UpdateNotZero(scan ...interface{}) (Result, error)    { return nil, nil }
func (q *Query) Delete(values ...interface{}) (Result, error)         { return nil, nil }
func (q *Query) ForceDelete(values ...interface{}) (Result, error)    { return nil, nil }
func (q *Query) Exec(query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
func (q *Query) ExecOne(query interface{}, params ...interface{}) (Result, error) {
	return nil, nil
}
