// Package store stubs go-micro.dev/v4/store: a key-value store a service
// keeps its state in (NATS KV, Redis, memory).
package store

import "time"

type Record struct {
	Key    string
	Value  []byte
	Expiry time.Duration
}

type (
	ReadOption    func(o *ReadOptions)
	ReadOptions   struct{ Prefix bool }
	WriteOption   func(o *WriteOptions)
	WriteOptions  struct{ TTL time.Duration }
	DeleteOption  func(o *DeleteOptions)
	DeleteOptions struct{ Table string }
)

type Store interface {
	Read(key string, opts ...ReadOption) ([]*Record, error)
	Write(r *Record, opts ...WriteOption) error
	Delete(key string, opts ...DeleteOption) error
}
