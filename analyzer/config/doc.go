// Package config owns .outboxify.yaml: the team's own publishers and writers
// (by full name, added to the catalog) and the paths the analyzer skips.
// The file lives at the module root; Load finds it from any directory inside.
package config
