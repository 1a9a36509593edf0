// Package gocql stubs github.com/apache/cassandra-gocql-driver/v2, gocql
// under the Apache Software Foundation.
package gocql

import "context"

type Session struct{}
type Query struct{}
type Batch struct{}
type BatchType byte

func (s *Session) Query(stmt string, values ...interface{}) *Query { return &Query{} }
func (s *Session) Batch(typ BatchType) *Batch                      { return &Batch{} }
func (s *Session) ExecuteBatch(b *Batch) error                     { return nil }
func (q *Query) Exec() error                                       { return nil }
func (q *Query) ExecContext(ctx context.Context) error             { return nil }
func (b *Batch) Exec() error                                       { return nil }
func (b *Batch) ExecContext(ctx context.Context) error             { return nil }
