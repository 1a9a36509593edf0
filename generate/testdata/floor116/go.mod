module example.com/floor116

go 1.16

require (
	github.com/jackc/pgconn v1.0.0
	github.com/jackc/pgx/v4 v4.0.0
	github.com/jmoiron/sqlx v1.2.0
	google.golang.org/appengine v1.6.8 // indirect
	gorm.io/gorm v1.20.0
)
