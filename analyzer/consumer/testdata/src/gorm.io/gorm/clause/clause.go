// Package clause is a stub of gorm.io/gorm/clause for fixtures.
package clause

type Expression interface{}

type Column struct{ Name string }

type OnConflict struct {
	Columns   []Column
	DoNothing bool
}
