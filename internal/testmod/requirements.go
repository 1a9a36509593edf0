//go:build outboxify_requirements

package testmod

// Generated code imports client libraries that outboxify itself does not:
// the temp modules built in tests take their requirements from this
// repository's go.mod, so these imports keep `go mod tidy` from dropping
// them. The build tag keeps them out of every real build.
import (
	_ "github.com/jmoiron/sqlx"
	_ "gorm.io/driver/mysql"
	_ "gorm.io/driver/postgres"
	_ "gorm.io/gorm"
)
