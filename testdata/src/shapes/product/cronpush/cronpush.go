// Package cronpush has a control plane's shape: a cron script row is
// stored, then the change is sent to every connected agent from a goroutine
// that retries with backoff until the agent answers. The send is a closure
// bound to a variable and handed to the retry helper: it runs there.
package cronpush

import (
	"context"
	"errors"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/jmoiron/sqlx"
	"github.com/nats-io/nats.go"
)

type Server struct {
	db *sqlx.DB
	nc *nats.Conn
}

func (s *Server) CreateScript(ctx context.Context, id, script string, agents []string) error {
	if _, err := s.db.ExecContext(ctx, "INSERT INTO cron_scripts (id, script) VALUES ($1, $2)", id, script); err != nil {
		return err
	}
	s.sendUpdate([]byte(script), agents) // want "OBX001"
	return nil
}

// Preview only sends: nothing is written.
func (s *Server) Preview(script string, agents []string) {
	s.sendUpdate([]byte(script), agents)
}

func (s *Server) sendUpdate(msg []byte, agents []string) {
	for _, a := range agents {
		go s.retryUntilResponse(msg, "c2v."+a+".cron", "v2c."+a+".cron")
	}
}

func (s *Server) retryUntilResponse(msg []byte, topic, reply string) {
	send := func() error {
		return s.requestAndWait(msg, topic, reply)
	}
	opts := backoff.NewExponentialBackOff()
	opts.MaxElapsedTime = time.Minute
	_ = backoff.Retry(send, opts)
}

func (s *Server) requestAndWait(msg []byte, topic, reply string) error {
	ch := make(chan *nats.Msg, 1)
	if err := s.nc.Publish(topic, msg); err != nil {
		return err
	}
	t := time.NewTimer(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ch:
			return nil
		case <-t.C:
			return errors.New("no response")
		}
	}
}

// Count runs a closure bound to a variable that only reads.
func (s *Server) Count(ctx context.Context) error {
	count := func() error {
		return s.db.QueryRowContext(ctx, "SELECT count(*) FROM cron_scripts").Err()
	}
	if err := count(); err != nil {
		return err
	}
	return s.nc.Publish("cron.counted", nil)
}
