// Package dialect stubs entgo.io/ent/dialect: the driver the generated
// builders run their statements on.
package dialect

import "context"

type Driver interface {
	Exec(ctx context.Context, query string, args, v any) error
	Query(ctx context.Context, query string, args, v any) error
	Close() error
	Dialect() string
}
