package pgconn

type CommandTag []byte
