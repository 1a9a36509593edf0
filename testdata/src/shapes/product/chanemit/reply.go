package chanemit

import (
	"database/sql"

	"github.com/nats-io/nats.go"
)

// found is a request to the validator's loop with the channel its caller
// waits on for the result (teranode's blockFound): errCh carries an
// error back, no message toward a publisher.
type found struct {
	hash  string
	errCh chan error
}

type BlockValidator struct {
	db      *sql.DB
	nc      *nats.Conn
	foundCh chan found
}

// BlockFound announces the block, queues it and waits for the result.
func (v *BlockValidator) BlockFound(hash string) error {
	v.nc.Publish("block.announced", []byte(hash))
	errCh := make(chan error, 1)
	v.foundCh <- found{hash: hash, errCh: errCh}
	err := <-errCh
	return err
}

// process stores each block, then wakes its caller: no publish here.
func (v *BlockValidator) process() {
	for f := range v.foundCh {
		_, err := v.db.Exec("INSERT INTO blocks (hash) VALUES ($1)", f.hash)
		f.errCh <- err
	}
}
