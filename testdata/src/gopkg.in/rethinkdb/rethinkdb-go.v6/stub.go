// Package rethinkdb stubs rethinkdb-go: the Term builders a write query
// uses and RunWrite, which the catalog names, with its real signature.
package rethinkdb

type QueryExecutor interface{ IsConnected() bool }

type Session struct{}

func (s *Session) IsConnected() bool { return true }

type RunOpts struct{}
type WriteResponse struct{ Inserted, Replaced int }

type Term struct{ name string }

func DB(name string) Term                                               { return Term{name} }
func Table(name string) Term                                            { return Term{name} }
func (t Term) Table(name string) Term                                   { return t }
func (t Term) Get(key interface{}) Term                                 { return t }
func (t Term) Insert(arg interface{}) Term                              { return t }
func (t Term) Replace(arg interface{}) Term                             { return t }
func (t Term) Update(arg interface{}) Term                              { return t }
func (t Term) Delete() Term                                             { return t }
func (t Term) Run(s QueryExecutor, optArgs ...RunOpts) (*Cursor, error) { return nil, nil }
func (t Term) RunWrite(s QueryExecutor, optArgs ...RunOpts) (WriteResponse, error) {
	return WriteResponse{}, nil
}

type Cursor struct{}
