package paths

import (
	"context"

	"github.com/uptrace/bun"
)

type Usage struct{ Deploy string }

// MeterRunning reads the running deploys (bun's SelectQuery.Exec scans
// rows, though it returns a sql.Result) and publishes a metering event for
// each: nothing is written, no dual write.
func (s *Service) MeterRunning(ctx context.Context, db *bun.DB) error {
	var rows []Usage
	if _, err := db.NewSelect().Model(&rows).Exec(ctx, &rows); err != nil {
		return err
	}
	for _, r := range rows {
		s.nc.Publish("metering", []byte(r.Deploy))
	}
	return nil
}
