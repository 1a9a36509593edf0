package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestSummarizeStream(t *testing.T) {
	in := strings.Join([]string{
		`{"Action":"start","Package":"p"}`,
		`{"Action":"run","Package":"p","Test":"TestA"}`,
		`{"Action":"output","Package":"p","Test":"TestA","Output":"=== RUN   TestA\n"}`,
		`{"Action":"pass","Package":"p","Test":"TestA"}`,
		`{"Action":"run","Package":"p","Test":"TestDB"}`,
		`{"Action":"output","Package":"p","Test":"TestDB","Output":"    testenv.go:69: PostgreSQL not reachable at postgres://x (dial tcp: refused); start it with: pg_ctlcluster 17 main start, or set OUTBOXIFY_PG_URL\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestDB"}`,
		`{"Action":"run","Package":"p","Test":"TestDB2"}`,
		`{"Action":"output","Package":"p","Test":"TestDB2","Output":"    testenv.go:69: PostgreSQL not reachable at postgres://x (dial tcp: refused); start it with: pg_ctlcluster 17 main start, or set OUTBOXIFY_PG_URL\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestDB2"}`,
		`{"Action":"run","Package":"p","Test":"TestTool"}`,
		`{"Action":"output","Package":"p","Test":"TestTool","Output":"    ops_test.go:26: promtool not found\n"}`,
		`{"Action":"skip","Package":"p","Test":"TestTool"}`,
		`{"Action":"run","Package":"p","Test":"TestBad"}`,
		`{"Action":"output","Package":"p","Test":"TestBad","Output":"    x_test.go:3: boom\n"}`,
		`{"Action":"fail","Package":"p","Test":"TestBad"}`,
		`{"Action":"output","Package":"p","Output":"FAIL\n"}`,
		`{"Action":"output","Package":"p","Output":"FAIL\tp\t0.1s\n"}`,
		`{"Action":"fail","Package":"p"}`,
	}, "\n")
	var out bytes.Buffer
	s, err := Summarize(strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"    x_test.go:3: boom\n", // a failed test's output
		"FAIL\tp\t0.1s\n",
		"\nFAIL: 5 tests run (subtests included): 1 passed, 1 failed, 3 skipped; 1 package(s) failed: p\n",
		"  skipped 2: PostgreSQL not reachable: run `make services` (starts PostgreSQL with: pg_ctlcluster 17 main start), or set OUTBOXIFY_PG_URL\n",
		"  skipped 1: promtool not found\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "=== RUN") {
		t.Errorf("verbose lines printed:\n%s", got)
	}
	if !s.Failed() {
		t.Error("a failed test does not fail the summary")
	}
}

// TestSummarizeRealSkips runs real tests that need each server the suite
// uses (PostgreSQL, MariaDB, NATS, RabbitMQ, Redis) with every address
// pointed at a closed port: the summary names each server and the command
// that starts it.
func TestSummarizeRealSkips(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	cmd := exec.Command("go", "test", "-json", "-count=1", "-run", "TestPostgresDBIsIsolated|TestMySQLDB|TestNATSReachable|TestRabbitMQReachable|TestRedisReachable", "../testenv")
	cmd.Env = append(os.Environ(), "CI=",
		"OUTBOXIFY_PG_URL=postgres://postgres@"+closed+"/test?sslmode=disable",
		"OUTBOXIFY_MYSQL_DSN=root@tcp("+closed+")/test",
		"OUTBOXIFY_NATS_URL=nats://"+closed,
		"OUTBOXIFY_AMQP_URL=amqp://guest:guest@"+closed+"/",
		"OUTBOXIFY_REDIS_ADDR="+closed)
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, data)
	}
	var out bytes.Buffer
	s, err := Summarize(bytes.NewReader(data), &out)
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if s.Failed() || s.Skipped != 5 {
		t.Errorf("want 5 skipped, none failed:\n%s", got)
	}
	for _, want := range []string{
		"ok: 5 tests run (subtests included): 0 passed, 0 failed, 5 skipped\n",
		"  skipped 1: PostgreSQL not reachable: run `make services` (starts PostgreSQL with: pg_ctlcluster",
		"  skipped 1: MariaDB/MySQL not reachable: run `make services`",
		"  skipped 1: NATS (JetStream) not reachable: run `make services`",
		"  skipped 1: RabbitMQ not reachable: run `make services`",
		"  skipped 1: Redis not reachable: run `make services`",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

func TestSummarizeNothingRan(t *testing.T) {
	var out bytes.Buffer
	s, err := Summarize(strings.NewReader("go: unknown flag -bogus\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Failed() || !strings.Contains(out.String(), "go: unknown flag -bogus\n") {
		t.Errorf("a run where go test did not start passes:\n%s", out.String())
	}
}
