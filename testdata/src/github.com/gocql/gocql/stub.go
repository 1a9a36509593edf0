package gocql

type Session struct{}
type Query struct{}
type Batch struct{}

func (s *Session) Query(stmt string, values ...any) *Query { return nil }
func (s *Session) ExecuteBatch(b *Batch) error             { return nil }
func (s *Session) NewBatch(t int) *Batch                   { return nil }
func (q *Query) Exec() error                               { return nil }
func (q *Query) Scan(dest ...any) error                    { return nil }
