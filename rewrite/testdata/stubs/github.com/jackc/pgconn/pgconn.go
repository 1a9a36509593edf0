// Package pgconn is a stub of github.com/jackc/pgconn (pgx v4's) for rewrite tests.
package pgconn

type CommandTag []byte
