package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ *sql.DB }
type Tx struct{ *sql.Tx }
type Rows struct{ *sql.Rows }
type Row struct{}
type NamedStmt struct{}

func Open(driver, dsn string) (*DB, error) { return nil, nil }

func (db *DB) NamedExec(query string, arg any) (sql.Result, error) { return nil, nil }
func (db *DB) NamedExecContext(ctx context.Context, query string, arg any) (sql.Result, error) {
	return nil, nil
}
func (db *DB) MustExec(query string, args ...any) sql.Result                             { return nil }
func (db *DB) MustExecContext(ctx context.Context, query string, args ...any) sql.Result { return nil }
func (db *DB) Queryx(query string, args ...any) (*Rows, error)                           { return nil, nil }
func (db *DB) QueryxContext(ctx context.Context, query string, args ...any) (*Rows, error) {
	return nil, nil
}
func (db *DB) QueryRowx(query string, args ...any) *Row                             { return nil }
func (db *DB) QueryRowxContext(ctx context.Context, query string, args ...any) *Row { return nil }
func (db *DB) NamedQuery(query string, arg any) (*Rows, error)                      { return nil, nil }
func (db *DB) NamedQueryContext(ctx context.Context, query string, arg any) (*Rows, error) {
	return nil, nil
}
func (db *DB) Beginx() (*Tx, error)                                           { return nil, nil }
func (db *DB) DriverName() string                                             { return "postgres" }
func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) { return nil, nil }
func (db *DB) MustBegin() *Tx                                                 { return nil }
func (db *DB) MustBeginTx(ctx context.Context, opts *sql.TxOptions) *Tx       { return nil }
func (db *DB) PrepareNamed(query string) (*NamedStmt, error)                  { return nil, nil }
func (db *DB) Get(dest any, query string, args ...any) error                  { return nil }
func (db *DB) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return nil
}
func (db *DB) Select(dest any, query string, args ...any) error { return nil }
func (db *DB) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return nil
}
func (tx *Tx) Get(dest any, query string, args ...any) error { return nil }
func (tx *Tx) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return nil
}
func (tx *Tx) Select(dest any, query string, args ...any) error { return nil }
func (tx *Tx) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return nil
}
func (db *DB) BindNamed(query string, arg any) (string, []any, error) { return query, nil, nil }

func (tx *Tx) NamedExec(query string, arg any) (sql.Result, error) { return nil, nil }
func (tx *Tx) NamedExecContext(ctx context.Context, query string, arg any) (sql.Result, error) {
	return nil, nil
}
func (tx *Tx) MustExec(query string, args ...any) sql.Result                             { return nil }
func (tx *Tx) MustExecContext(ctx context.Context, query string, args ...any) sql.Result { return nil }
func (tx *Tx) Queryx(query string, args ...any) (*Rows, error)                           { return nil, nil }
func (tx *Tx) QueryxContext(ctx context.Context, query string, args ...any) (*Rows, error) {
	return nil, nil
}
func (tx *Tx) QueryRowx(query string, args ...any) *Row                             { return nil }
func (tx *Tx) QueryRowxContext(ctx context.Context, query string, args ...any) *Row { return nil }

func (s *NamedStmt) Exec(arg any) (sql.Result, error)                             { return nil, nil }
func (s *NamedStmt) ExecContext(ctx context.Context, arg any) (sql.Result, error) { return nil, nil }
