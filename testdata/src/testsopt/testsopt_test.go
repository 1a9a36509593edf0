package testsopt

import (
	"context"
	"database/sql"
	"testing"

	"github.com/segmentio/kafka-go"
)

func TestSaveThenAnnounce(t *testing.T) {
	var db *sql.DB
	var w *kafka.Writer
	ctx := context.Background()
	if db == nil || w == nil {
		t.Skip("fixture")
	}
	Save(ctx, db)
	Announce(ctx, w)
}
