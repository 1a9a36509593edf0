package relaytest

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// sh runs a command and fails the test with its output when it fails.
func sh(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// forward accepts on listen and copies each connection to target (both
// ways) until the test ends.
func forward(t *testing.T, listen, target string) {
	t.Helper()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		t.Fatal(err)
	}
	serveConns(t, ln, func(c net.Conn) { dialPipe(c, target) })
}

// deadNet is a network namespace the test creates with a veth pair into
// it (10.231.x.0/30, addresses only on that pair): a relay started inside
// reaches the host at hostIP; cut takes the namespace's link down, so its
// packets vanish (no FIN, no RST).
type deadNet struct {
	ns, link     string // the namespace and its end of the pair
	hostIP, nsIP string
}

// newDeadNet makes the namespace (removed at the end); skips without root
// or ip.
func newDeadNet(t *testing.T) *deadNet {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root (network namespaces)")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("needs ip (iproute2) for network namespaces")
	}
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	id := hex.EncodeToString(b)
	ns, va, vb := "obx"+id, "obxa"+id, "obxb"+id
	if out, err := exec.Command("ip", "netns", "add", ns).CombinedOutput(); err != nil {
		t.Skipf("ip netns add: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
	sh(t, "ip", "link", "add", va, "type", "veth", "peer", "name", vb)
	t.Cleanup(func() { _ = exec.Command("ip", "link", "del", va).Run() })
	sh(t, "ip", "link", "set", vb, "netns", ns)
	octet := int(b[0])%250 + 1
	n := &deadNet{ns: ns, link: vb, hostIP: fmt.Sprintf("10.231.%d.1", octet), nsIP: fmt.Sprintf("10.231.%d.2", octet)}
	sh(t, "ip", "addr", "add", n.hostIP+"/30", "dev", va)
	sh(t, "ip", "link", "set", va, "up")
	sh(t, "ip", "netns", "exec", ns, "ip", "addr", "add", n.nsIP+"/30", "dev", vb)
	sh(t, "ip", "netns", "exec", ns, "ip", "link", "set", vb, "up")
	sh(t, "ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
	return n
}

// cut takes the namespace's link down: its packets vanish.
func (n *deadNet) cut(t *testing.T) {
	t.Helper()
	sh(t, "ip", "netns", "exec", n.ns, "ip", "link", "set", n.link, "down")
}

// deadHostFailover is the dead host scenario on a database the test owns
// (d, reached from the namespace at leaderURL): 30 rows on a NATS subject;
// the leader (c's relay process inside the namespace, reaching NATS through
// a forwarder on the veth address) publishes a batch of 10 and pauses
// before the mark; the link goes down; a standby outside (d.url) must
// publish every row within the failover bound, lose none, and the first
// copies arrive in order per aggregate.
// OUTBOXIFY_DEADHOST_LEADER_FAILOVER overrides the leader's --failover (at
// 300s the test fails: the dead leader's session keeps the lock).
func deadHostFailover(t *testing.T, c relayCase, d *testDB, n *deadNet, leaderURL string) {
	t.Helper()
	natsURL := needEnv(t, "OUTBOXIFY_NATS_URL")
	natsHost := strings.TrimPrefix(natsURL, "nats://")
	natsFwd := net.JoinHostPort(n.hostIP, strings.Split(freeAddr(t), ":")[1])
	forward(t, natsFwd, natsHost)

	nc, err := nats.Connect(natsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	subject := randName("deadhost") + ".orders"
	rec := recordNATS(t, nc, subject)
	rows := d.insert(t, sequence(subject, aggregates("h", 3), 30)...)

	const failover = 6 * time.Second
	leaderFailover := failover.String()
	if v := os.Getenv("OUTBOXIFY_DEADHOST_LEADER_FAILOVER"); v != "" {
		leaderFailover = v
	}
	flags := []string{"--poll-interval", "50ms", "--retry-base", "50ms", "--retry-max", "200ms", "--metrics-addr", "",
		"--publish-timeout", "2s", "--batch-size", "10", "--notify", "off"}
	cmd := exec.Command("ip", append([]string{"netns", "exec", n.ns, os.Args[0], "run", "--database-url", leaderURL, "--broker-url", "nats://" + natsFwd,
		"--failover", leaderFailover}, flags...)...)
	cmd.Env = append(os.Environ(), "RELAYTEST_MAIN="+c.ident, "OUTBOX_RELAY_FAILPOINT=after-publish:pause")
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("leader output:\n%s", out)
		}
	})
	eventually(t, 30*time.Second, "the leader paused mid-batch", func() bool {
		return strings.Contains(out.String(), "failpoint after-publish reached")
	})
	n.cut(t) // its packets vanish: no FIN, no RST
	cut := time.Now()
	sentByLeader := rec.count()

	startRelay(t, c, append([]string{"--database-url", d.url, "--broker-url", natsURL, "--failover", failover.String()}, flags...)...)
	eventually(t, failover+20*time.Second, "the standby published every row", func() bool {
		return d.count(t, "published_at IS NULL") == 0
	})
	took := time.Since(cut)
	time.Sleep(200 * time.Millisecond)
	got, ids := rec.received()
	lost, dups := tally(rows, ids)
	t.Logf("counts: rows %d, sent by the dead leader %d, received %d, duplicates %d, lost %d; standby done %s after the link went down (failover %s, leader's %s)",
		len(rows), sentByLeader, len(got), dups, lost, took.Round(100*time.Millisecond), failover, leaderFailover)
	checkOrder(t, got)
	if lost != 0 {
		t.Fatalf("%d rows lost", lost)
	}
	if took > failover+4*time.Second {
		t.Fatalf("the standby finished %s after the leader's host vanished, want within the %s failover bound (+4s)", took, failover)
	}
}

// TestDeadHostFailsOver: the leading relay runs in a network namespace the
// test creates (a veth pair, addresses only on it) against a PostgreSQL
// cluster the test owns; mid-batch (paused after the broker acked, before
// the mark) the namespace's link goes down: its packets vanish, no FIN, no
// RST. A standby outside takes the leader lock within the failover bound
// and publishes every row; what the dead leader had sent is at most a
// duplicate, and the first copies arrive in order per aggregate.
// The leader is idle in transaction when its host vanishes, so the server
// ends its session by idle_in_transaction_session_timeout (the batch
// session's keepalives and tcp_user_timeout are set too; they matter when
// the backend is blocked sending). With the leader's --failover at 300s
// (OUTBOXIFY_DEADHOST_LEADER_FAILOVER=300s) the standby does not take over
// within the bound: the test fails.
// (tc netem is not used: this kernel has no sch_netem, and no nft or
// iptables is installed; link down drops the packets the same way.) Needs
// root, ip and a PostgreSQL server installation; skips otherwise.
func TestDeadHostFailsOver(t *testing.T) {
	needEnv(t, "OUTBOXIFY_NATS_URL")
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		t.Skip("no PostgreSQL server installation (initdb)")
	}
	pgbin := filepath.Dir(bins[len(bins)-1])
	c := get(t, "pg_nats")
	n := newDeadNet(t)

	// A PostgreSQL cluster of the test's own, on 127.0.0.1 and the veth address.
	dir, err := os.MkdirTemp("", "obxpg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sh(t, "chown", "postgres", dir)
	data := filepath.Join(dir, "data")
	sh(t, "runuser", "-u", "postgres", "--", filepath.Join(pgbin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "--no-sync")
	hba, err := os.OpenFile(filepath.Join(data, "pg_hba.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(hba, "host all all %s/32 trust\n", n.nsIP)
	hba.Close()
	_, port, _ := net.SplitHostPort(freeAddr(t))
	sh(t, "runuser", "-u", "postgres", "--", filepath.Join(pgbin, "pg_ctl"), "-D", data, "-w", "-l", filepath.Join(dir, "log"),
		"-o", fmt.Sprintf("-c listen_addresses='127.0.0.1,%s' -p %s -k %s -c fsync=off", n.hostIP, port, dir), "start")
	t.Cleanup(func() {
		_ = exec.Command("runuser", "-u", "postgres", "--", filepath.Join(pgbin, "pg_ctl"), "-D", data, "-m", "immediate", "stop").Run()
	})
	admin, err := sql.Open("pgx", fmt.Sprintf("postgres://postgres@127.0.0.1:%s/postgres?sslmode=disable", port))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec("CREATE DATABASE relay"); err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile(filepath.Join("testdata", "schema_postgres.sql"))
	if err != nil {
		t.Fatal(err)
	}
	d := &testDB{dialect: "postgres", url: fmt.Sprintf("postgres://postgres@127.0.0.1:%s/relay?sslmode=disable", port)}
	if d.sql, err = sql.Open("pgx", d.url); err != nil {
		t.Fatal(err)
	}
	defer d.sql.Close()
	if _, err := d.sql.Exec(string(schema)); err != nil {
		t.Fatal(err)
	}
	deadHostFailover(t, c, d, n, fmt.Sprintf("postgres://postgres@%s:%s/relay?sslmode=disable", n.hostIP, port))
}

// TestDeadHostFailsOverMariaDB is TestDeadHostFailsOver on MariaDB: a
// private mariadbd the test starts (on 127.0.0.1 and the veth address, no
// name resolution), the leader inside the namespace, its link down
// mid-batch. The leader's session is idle (paused before the mark) when its
// host vanishes, so the server ends it by the batch session's wait_timeout
// (= --failover): the transaction rolls back, GET_LOCK is released and the
// standby outside leads. With OUTBOXIFY_DEADHOST_LEADER_FAILOVER=300s the
// test fails. Skips without root, ip, mariadb-install-db or mariadbd.
func TestDeadHostFailsOverMariaDB(t *testing.T) {
	needEnv(t, "OUTBOXIFY_NATS_URL")
	c := get(t, "my_nats")
	n := newDeadNet(t)
	port, root := startMariaDB(t, "a private MariaDB server for the dead host test",
		"--bind-address=127.0.0.1,"+n.hostIP, "--skip-name-resolve")
	dsn := func(host string) string { return privateRelayDSN("relay", net.JoinHostPort(host, port)) }
	d := privateRelayDB(t, root, dsn("127.0.0.1"), "CREATE USER 'relay'@'%'", "GRANT ALL ON relay.* TO 'relay'@'%'")
	deadHostFailover(t, c, d, n, dsn(n.hostIP))
}
