// Package queries stubs sqlboiler's query builder.
package queries

// BuildUpsertQueryPostgres builds INSERT ... ON CONFLICT for a model.
func BuildUpsertQueryPostgres(table string, updateOnConflict bool, conflict []string) string {
	return ""
}
