// Package legacy is excluded by the configuration.
package legacy

import (
	"context"

	"cfg/app"
)

func Old(ctx context.Context, s *app.Store, b *app.Bus) {
	s.Put(ctx, "1", nil)
	b.Emit(ctx, "orders", "1")
}
