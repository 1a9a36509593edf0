package keep

import (
	_ "github.com/jackc/pgx/v4"
	_ "github.com/jmoiron/sqlx"
	_ "gorm.io/gorm"
)
