package catalog

import "testing"

func TestNoEffectSQL(t *testing.T) {
	for text, want := range map[string]bool{
		";":        true,
		"  ":       true,
		"SELECT 1": true,
		"SELECT 1/count(*) FROM schema_migrations WHERE version = 3": true,
		"SELECT pg_notify('c', 'x')":                                 false,
		"CALL archive()":                                             false,
		"UPDATE t SET a = 1":                                         false,
		"WITH x AS (DELETE FROM t) SELECT 1":                         false,
		"SET LOCAL search_path TO  unknown_table , public":           true,
		"SET statement_timeout = 5000":                               true,
		"RESET ALL":                                                  true,
		"LISTEN jobs":                                                true,
		"SET LOCAL x = 1; UPDATE t SET a = 1":                        false,
	} {
		if got := NoEffectSQL(text); got != want {
			t.Errorf("NoEffectSQL(%q) = %v, want %v", text, got, want)
		}
	}
}
