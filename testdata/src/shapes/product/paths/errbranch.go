package paths

import "context"

// Retry is a worker's failure handler: the failed run's retry count is
// written and, past the limit, a sync message is sent. Both sit in the
// error branch: one path, a dual write.
func (s *Service) Retry(ctx context.Context, id string, tries int) error {
	if err := s.step(ctx, id); err != nil {
		if _, err := s.db.ExecContext(ctx, "UPDATE runs SET retries = retries + 1 WHERE id = $1", id); err != nil {
			return err
		}
		if tries >= 5 {
			return s.nc.Publish("runs.given_up", []byte(id)) // want `OBX001`
		}
		return err
	}
	return nil
}

// StartSession runs its branch on a parse error or on a reset: not an
// error-only branch.
func (s *Service) StartSession(ctx context.Context, token string, reset bool) error {
	_, err := s.parse(token)
	if err != nil || reset {
		if _, err := s.db.ExecContext(ctx, "INSERT INTO sessions (token) VALUES ($1)", token); err != nil {
			return err
		}
		return s.nc.Publish("session.started", []byte(token)) // want `OBX001`
	}
	return nil
}

// Charge writes, then reports a failure of a later step on the bus: the
// failure message does not announce the write. No finding.
func (s *Service) Charge(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, "UPDATE orders SET charged = true WHERE id = $1", id); err != nil {
		return err
	}
	if err := s.step(ctx, id); err != nil {
		s.nc.Publish("charge.failed", []byte(id))
		return err
	}
	return nil
}

func (s *Service) step(ctx context.Context, id string) error { return ctx.Err() }

func (s *Service) parse(token string) (string, error) { return token, nil }
