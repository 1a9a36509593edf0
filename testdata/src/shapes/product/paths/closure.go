package paths

import (
	"context"
	"database/sql"
)

// try runs fn once and turns a panic into an error, as GoFrame's g.Try
// does: the closure runs during the call.
func try(ctx context.Context, fn func(ctx context.Context)) (err error) {
	defer func() {
		if recover() != nil {
			err = sql.ErrConnDone
		}
	}()
	fn(ctx)
	return nil
}

// LogEntry sends a log line to the queue or writes it to the table, not
// both: the two sit on two branches of the closure, so no path runs both.
func (s *Service) LogEntry(ctx context.Context, toQueue bool, line string) error {
	return try(ctx, func(ctx context.Context) {
		if toQueue {
			s.nc.Publish("logs", []byte(line))
			return
		}
		s.db.ExecContext(ctx, "INSERT INTO logs (line) VALUES ($1)", line)
	})
}

// LogEntryElse is the same with an else branch.
func (s *Service) LogEntryElse(ctx context.Context, toQueue bool, line string) error {
	return try(ctx, func(ctx context.Context) {
		if toQueue {
			s.nc.Publish("logs", []byte(line))
		} else {
			s.db.ExecContext(ctx, "INSERT INTO logs (line) VALUES ($1)", line)
		}
	})
}

// SaveAndAnnounce runs both on the closure's one path: a dual write.
func (s *Service) SaveAndAnnounce(ctx context.Context, line string) error {
	return try(ctx, func(ctx context.Context) {
		s.db.ExecContext(ctx, "INSERT INTO logs (line) VALUES ($1)", line)
		s.nc.Publish("logs", []byte(line)) // want `OBX001`
	})
}
