package pgconn

type CommandTag struct{ s string }
