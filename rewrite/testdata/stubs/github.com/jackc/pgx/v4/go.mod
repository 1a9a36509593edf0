module github.com/jackc/pgx/v4

go 1.22

require github.com/jackc/pgconn v0.0.0
