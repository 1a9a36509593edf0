// Package testenv finds the real servers that integration tests talk to
// (PostgreSQL, MariaDB/MySQL, NATS JetStream, RabbitMQ, Redis, Mosquitto) and gives each
// test an isolated database. A server is found by environment variable or the
// loopback default. Under CI=true a missing server fails the test; elsewhere
// the test is skipped with a message naming what to start.
package testenv

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
)

// Service describes how to find one server and how to start it.
type Service struct {
	Name    string // human name
	Env     string // environment variable that overrides the address
	Default string // loopback default
	Start   string // the command that starts it on a fresh machine
}

var (
	Postgres = Service{"PostgreSQL", "OUTBOXIFY_PG_URL", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable",
		"pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"}
	MySQL = Service{"MariaDB/MySQL", "OUTBOXIFY_MYSQL_DSN", "root@tcp(127.0.0.1:3306)/test",
		"start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd"}
	NATS = Service{"NATS (JetStream)", "OUTBOXIFY_NATS_URL", "nats://127.0.0.1:4222",
		"start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server"}
	RabbitMQ = Service{"RabbitMQ", "OUTBOXIFY_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/",
		"rabbitmq-server -detached"}
	Redis = Service{"Redis", "OUTBOXIFY_REDIS_ADDR", "127.0.0.1:6379",
		"redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save ''"}
	Mosquitto = Service{"Mosquitto (MQTT)", "OUTBOXIFY_MQTT_ADDR", "127.0.0.1:1883",
		"mosquitto -d -c /etc/mosquitto/mosquitto.conf"}
)

// Addr returns the configured address of s (env var or default).
func (s Service) Addr() string {
	if v := os.Getenv(s.Env); v != "" {
		return v
	}
	return s.Default
}

// InCI reports whether missing servers must fail the run.
func InCI() bool { return os.Getenv("CI") == "true" }

// Require returns the address of s after checking that it accepts TCP
// connections. A missing server fails the test under CI=true and skips it
// otherwise, naming the command that starts it.
func Require(t testing.TB, s Service) string {
	t.Helper()
	addr := s.Addr()
	if err := dial(s, addr); err != nil {
		msg := fmt.Sprintf("%s not reachable at %s (%v); start it with: %s, or set %s", s.Name, addr, err, s.Start, s.Env)
		if InCI() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return addr
}

func dial(s Service, addr string) error {
	hostport := addr
	switch s.Env {
	case Postgres.Env:
		cfg, err := pgx.ParseConfig(addr)
		if err != nil {
			return err
		}
		hostport = net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port))
	case MySQL.Env:
		cfg, err := mysql.ParseDSN(addr)
		if err != nil {
			return err
		}
		hostport = cfg.Addr
	case NATS.Env, RabbitMQ.Env:
		u, err := url.Parse(addr)
		if err != nil {
			return err
		}
		hostport = u.Host
	}
	c, err := net.DialTimeout("tcp", hostport, 2*time.Second)
	if err != nil {
		return err
	}
	return c.Close()
}

// Name returns a random lower-case identifier with the given prefix, for
// databases, streams, queues and topics that must not collide between tests.
func Name(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}

// PostgresDB creates a fresh database for the test, drops it when the test
// ends, and returns its URL.
func PostgresDB(t testing.TB) string {
	t.Helper()
	admin := Require(t, Postgres)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connect to PostgreSQL at %s: %v", admin, err)
	}
	defer conn.Close(ctx)
	name := Name("outboxify")
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Logf("drop database %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop database %s: %v", name, err)
		}
	})
	cfg, err := pgx.ParseConfig(admin)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Database = name
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// MySQLDB creates a fresh MariaDB/MySQL database for the test, drops it when
// the test ends, and returns its DSN (go-sql-driver/mysql format, parseTime on).
func MySQLDB(t testing.TB) string {
	t.Helper()
	admin := Require(t, MySQL)
	db, err := sql.Open("mysql", admin)
	if err != nil {
		t.Fatalf("open MariaDB at %s: %v", admin, err)
	}
	defer db.Close()
	name := Name("outboxify")
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("mysql", admin)
		if err != nil {
			return
		}
		defer db.Close()
		if _, err := db.Exec("DROP DATABASE IF EXISTS " + name); err != nil {
			t.Logf("drop database %s: %v", name, err)
		}
	})
	cfg, err := mysql.ParseDSN(admin)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DBName = name
	cfg.ParseTime = true
	cfg.MultiStatements = true
	return cfg.FormatDSN()
}

// MustEnvBool reports whether env var name is set to a true-ish value; used
// for opt-in long runs (OUTBOXIFY_LONG=1).
func MustEnvBool(name string) bool {
	switch strings.ToLower(os.Getenv(name)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}
