// Package persistencetests is a shared test suite kept outside _test.go
// files: it runs only under go test, so it is not scanned unless tests are.
package persistencetests

import (
	"context"
	"database/sql"
	"testing"

	"github.com/nats-io/nats.go"
)

// Suite stands for testify's suite.Suite: T() returns the running test.
type Suite struct{ t *testing.T }

func (s *Suite) T() *testing.T { return s.t }

type TestBase struct {
	*Suite
	DB *sql.DB
	NC *nats.Conn
}

type VisibilitySuite struct{ *TestBase }

func (s *VisibilitySuite) TestRecord() {
	s.DB.ExecContext(context.Background(), "INSERT INTO visibility (id) VALUES ($1)", "w")
	s.NC.Publish("visibility", nil)
}

func CheckRecord(t *testing.T, db *sql.DB, nc *nats.Conn) {
	db.ExecContext(context.Background(), "INSERT INTO visibility (id) VALUES ($1)", "w")
	nc.Publish("visibility", nil)
}
