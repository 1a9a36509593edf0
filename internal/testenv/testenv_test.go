package testenv

import (
	"context"
	"database/sql"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestPostgresDBIsIsolated(t *testing.T) {
	a, b := PostgresDB(t), PostgresDB(t)
	if a == b {
		t.Fatalf("two calls returned the same database %s", a)
	}
	ctx := context.Background()
	c, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("SELECT 1 = %d, %v", n, err)
	}
}

func TestMySQLDB(t *testing.T) {
	dsn := MySQLDB(t)
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var name string
	if err := db.QueryRow("SELECT DATABASE()").Scan(&name); err != nil || name == "" {
		t.Fatalf("SELECT DATABASE() = %q, %v", name, err)
	}
}

// The brokers the relay, inbox and e2e tests use are found by their
// variable or the loopback default; under CI=true a missing one fails.
func TestNATSReachable(t *testing.T)      { Require(t, NATS) }
func TestRabbitMQReachable(t *testing.T)  { Require(t, RabbitMQ) }
func TestRedisReachable(t *testing.T)     { Require(t, Redis) }
func TestMosquittoReachable(t *testing.T) { Require(t, Mosquitto) }
