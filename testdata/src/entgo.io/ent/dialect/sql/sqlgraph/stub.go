// Package sqlgraph stubs the entgo.io/ent/dialect/sql/sqlgraph functions
// ent's generated builders end in.
package sqlgraph

import (
	"context"

	"entgo.io/ent/dialect"
)

type (
	CreateSpec      struct{ Table string }
	BatchCreateSpec struct{ Nodes []*CreateSpec }
	UpdateSpec      struct{}
	DeleteSpec      struct{}
)

func CreateNode(ctx context.Context, drv dialect.Driver, spec *CreateSpec) error       { return nil }
func BatchCreate(ctx context.Context, drv dialect.Driver, spec *BatchCreateSpec) error { return nil }
func UpdateNode(ctx context.Context, drv dialect.Driver, spec *UpdateSpec) error       { return nil }
func UpdateNodes(ctx context.Context, drv dialect.Driver, spec *UpdateSpec) (int, error) {
	return 0, nil
}
func DeleteNodes(ctx context.Context, drv dialect.Driver, spec *DeleteSpec) (int, error) {
	return 0, nil
}
