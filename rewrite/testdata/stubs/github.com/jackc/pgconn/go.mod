module github.com/jackc/pgconn

go 1.22
