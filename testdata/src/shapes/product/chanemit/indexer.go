package chanemit

import (
	"database/sql"

	"github.com/nats-io/nats.go"
)

// Indexer's goroutine stores each task's activity, then announces it: a
// worker with a dual write of its own. The poller that saves a profile and
// hands the indexer a task does not publish its profile write (CLI).
type Indexer struct {
	db    *sql.DB
	nc    *nats.Conn
	tasks chan IndexTask
}

type IndexTask struct{ ID string }

func NewIndexer(db *sql.DB, nc *nats.Conn) *Indexer {
	ix := &Indexer{db: db, nc: nc, tasks: make(chan IndexTask, 16)}
	go ix.run()
	return ix
}

func (ix *Indexer) run() {
	for t := range ix.tasks {
		if _, err := ix.db.Exec("INSERT INTO activities (id) VALUES ($1)", t.ID); err != nil {
			continue
		}
		_ = ix.nc.Publish("activities", []byte(t.ID)) // want "OBX001"
	}
}

// Poll saves the profile, then queues the task: no finding.
func (ix *Indexer) Poll(id string) error {
	if _, err := ix.db.Exec("UPDATE profiles SET polled = now() WHERE id = $1", id); err != nil {
		return err
	}
	ix.tasks <- IndexTask{ID: id}
	return nil
}
