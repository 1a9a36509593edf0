package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/outboxify/outboxify/internal/testenv"
)

// sharedBroker returns the machine's broker for s (JetStream), or an
// in-process kfake cluster for Kafka.
func sharedBroker(t *testing.T, s stack) brokerEnv {
	t.Helper()
	switch s.broker {
	case "jetstream":
		return jetStreamAt{addr: testenv.Require(t, testenv.NATS)}
	case "franz-go", "kafka-go", "sarama":
		return newKafka(t)
	}
	t.Fatalf("no broker environment for %s", s.broker)
	return nil
}

// jetStreamAt is a JetStream server at addr.
type jetStreamAt struct{ addr string }

func (j jetStreamAt) url() string { return j.addr }

// dupWindow is the JetStream duplicate window of the test streams. It is
// short on purpose: a message the relay publishes again after a crash then
// reaches the consumer, so the tests prove the inbox (not only JetStream's
// Nats-Msg-Id deduplication) makes it apply once.
const dupWindow = 100 * time.Millisecond

func (j jetStreamAt) prepare(t *testing.T, typ string, o destOptions) {
	t.Helper()
	nc, err := nats.Connect(j.addr)
	if err != nil {
		t.Fatalf("connect to NATS at %s: %v", j.addr, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cfg := jetstream.StreamConfig{Name: typ, Subjects: []string{typ}, Storage: jetstream.FileStorage, Duplicates: dupWindow}
	if o.maxMsgSize > 0 {
		cfg.MaxMsgSize = o.maxMsgSize
	}
	if _, err := js.CreateStream(ctx, cfg); err != nil {
		t.Fatalf("create stream %s: %v", typ, err)
	}
	t.Cleanup(func() {
		nc, err := nats.Connect(j.addr)
		if err != nil {
			return
		}
		defer nc.Close()
		js, err := jetstream.New(nc)
		if err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = js.DeleteStream(ctx, typ)
	})
}

// natsServer is a private nats-server process with JetStream that a test
// can stop and start again (same port, same storage), so the shared server
// other tests use is never touched.
type natsServer struct {
	t        *testing.T
	port     int
	storeDir string
	proc     *proc
}

const natsServerBin = "/usr/sbin/nats-server"

func newNATSServer(t *testing.T) *natsServer {
	t.Helper()
	if _, err := os.Stat(natsServerBin); err != nil {
		msg := fmt.Sprintf("%s not found (Debian package nats-server): needed for a private broker the test can stop", natsServerBin)
		if testenv.InCI() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	s := &natsServer{t: t, port: freePort(t), storeDir: t.TempDir()}
	s.start()
	return s
}

func (s *natsServer) url() string { return "nats://127.0.0.1:" + strconv.Itoa(s.port) }

func (s *natsServer) prepare(t *testing.T, typ string, o destOptions) {
	jetStreamAt{addr: s.url()}.prepare(t, typ, o)
}

func (s *natsServer) start() {
	s.t.Helper()
	s.proc = start(s.t, "nats-server", natsServerBin, nil, "-a", "127.0.0.1", "-p", strconv.Itoa(s.port), "-js", "-sd", s.storeDir)
	eventually(s.t, 15*time.Second, "private nats-server to accept connections", func() bool {
		nc, err := nats.Connect(s.url(), nats.Timeout(time.Second))
		if err != nil {
			return false
		}
		defer nc.Close()
		js, err := jetstream.New(nc)
		if err != nil {
			return false
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_, err = js.AccountInfo(ctx)
		return err == nil
	})
}

func (s *natsServer) startAgain() { s.start() }

// stop stops the server (SIGTERM, like a broker restart).
func (s *natsServer) stop() {
	_ = s.proc.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.proc.done:
	case <-time.After(15 * time.Second):
		s.proc.kill()
	}
}

// kafkaCluster is an in-process kfake cluster on a loopback port, reachable
// by the relay and consumer processes.
type kafkaCluster struct {
	t        *testing.T
	port     int
	c        *kfake.Cluster
	topic    string
	maxBytes int32
	down     atomic.Bool // while set, every request's connection is closed
}

func newKafka(t *testing.T) *kafkaCluster {
	t.Helper()
	k := &kafkaCluster{t: t, port: freePort(t)}
	k.start()
	t.Cleanup(func() {
		if k.c != nil {
			k.c.Close()
		}
	})
	return k
}

func (k *kafkaCluster) start() {
	k.t.Helper()
	opts := []kfake.Opt{kfake.Ports(k.port), kfake.NumBrokers(1)}
	if k.topic != "" {
		opts = append(opts, kfake.SeedTopics(4, k.topic))
	}
	if k.maxBytes > 0 {
		opts = append(opts, kfake.BrokerConfigs(map[string]string{"message.max.bytes": strconv.Itoa(int(k.maxBytes))}))
	}
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		k.t.Fatalf("start kfake: %v", err)
	}
	// The outage switch: while down, the cluster closes the connection of
	// every request (the data stays, as on a broker that restarts).
	c.Control(func(kmsg.Request) (kmsg.Response, error, bool) {
		if !k.down.Load() {
			return nil, nil, false
		}
		c.KeepControl()
		return nil, errors.New("e2e: broker down"), true
	})
	k.c = c
}

// stop makes the cluster unreachable; start brings it back.
func (k *kafkaCluster) stop()       { k.down.Store(true) }
func (k *kafkaCluster) startAgain() { k.down.Store(false) }

func (k *kafkaCluster) url() string { return "127.0.0.1:" + strconv.Itoa(k.port) }

func (k *kafkaCluster) prepare(t *testing.T, typ string, o destOptions) {
	k.topic, k.maxBytes = typ, o.maxMsgSize
	k.c.Close()
	k.start()
}

// outageBroker is a broker a test can take away and bring back.
type outageBroker interface {
	brokerEnv
	stop()
	startAgain()
}

// pgCluster is a private PostgreSQL cluster (initdb + pg_ctl into a temp
// dir, a free port, run as the postgres user) that a test can crash and
// start again without touching the shared server.
type pgCluster struct {
	t        *testing.T
	bin, dir string
	port     int
}

func newPGCluster(t *testing.T) *pgCluster {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 || os.Geteuid() != 0 {
		msg := "a private PostgreSQL cluster needs /usr/lib/postgresql/*/bin and root (to run it as the postgres user)"
		if testenv.InCI() {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	dir, err := os.MkdirTemp("", "outboxify-pg-")
	if err != nil {
		t.Fatal(err)
	}
	c := &pgCluster{t: t, bin: filepath.Dir(bins[0]), dir: dir, port: freePort(t)}
	t.Cleanup(func() {
		c.pgctl("stop", "-m", "immediate")
		_ = os.RemoveAll(dir)
	})
	if out, err := exec.Command("chown", "postgres", dir).CombinedOutput(); err != nil {
		t.Fatalf("chown %s: %v\n%s", dir, err, out)
	}
	c.asPostgres(filepath.Join(c.bin, "initdb"), "-D", c.data(), "-A", "trust", "-U", "postgres", "--no-sync")
	c.start()
	return c
}

func (c *pgCluster) data() string { return filepath.Join(c.dir, "data") }

func (c *pgCluster) asPostgres(args ...string) string {
	c.t.Helper()
	out, err := exec.Command("runuser", append([]string{"-u", "postgres", "--"}, args...)...).CombinedOutput()
	if err != nil {
		c.t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (c *pgCluster) pgctl(args ...string) {
	_ = exec.Command("runuser", append([]string{"-u", "postgres", "--", filepath.Join(c.bin, "pg_ctl"), "-D", c.data(), "-w"}, args...)...).Run()
}

// start starts the cluster and waits until it accepts connections.
func (c *pgCluster) start() {
	c.t.Helper()
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50", c.port, c.dir)
	c.asPostgres(filepath.Join(c.bin, "pg_ctl"), "-D", c.data(), "-l", filepath.Join(c.dir, "log"), "-o", opts, "-w", "start")
}

// crash stops the cluster the hard way (immediate: no checkpoint, recovery
// on the next start), as a machine or process crash would.
func (c *pgCluster) crash() {
	c.t.Helper()
	c.asPostgres(filepath.Join(c.bin, "pg_ctl"), "-D", c.data(), "-m", "immediate", "-w", "stop")
}

// createDB creates a database and returns its URL.
func (c *pgCluster) createDB(name string) string {
	c.t.Helper()
	c.asPostgres(filepath.Join(c.bin, "psql"), "-h", "127.0.0.1", "-p", strconv.Itoa(c.port), "-U", "postgres", "-d", "postgres", "-c", "CREATE DATABASE "+name)
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, name)
}
