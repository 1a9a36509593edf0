package relaytest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// issueFiles writes a certificate the CA issues (for 127.0.0.1 and
// localhost; server or client use) and its key as PEM files.
func (ca *testCA) issueFiles(t *testing.T, name string, usage x509.ExtKeyUsage) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{usage},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// startMariaDB starts a MariaDB server of the test's own (mariadb-install-db
// into a temporary data directory, mariadbd on a free port and its own
// socket, killed at the end) with extra server options, and returns its TCP
// port and a root connection over its socket. Skips, naming what for,
// without mariadb-install-db or mariadbd.
func startMariaDB(t *testing.T, what string, extra ...string) (port string, root *sql.DB) {
	t.Helper()
	install, err := exec.LookPath("mariadb-install-db")
	if err != nil {
		t.Skipf("mariadb-install-db not installed: cannot start %s", what)
	}
	server := "/usr/sbin/mariadbd"
	if _, err := os.Stat(server); err != nil {
		if server, err = exec.LookPath("mariadbd"); err != nil {
			t.Skipf("mariadbd not installed: cannot start %s", what)
		}
	}
	dir, err := os.MkdirTemp("", "obxmy")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	var asUser []string
	if os.Getuid() == 0 {
		asUser = []string{"--user=root"}
	}
	data := filepath.Join(dir, "data")
	args := append([]string{"--no-defaults", "--datadir=" + data, "--auth-root-authentication-method=normal", "--skip-test-db"}, asUser...)
	if out, err := exec.Command(install, args...).CombinedOutput(); err != nil {
		t.Fatalf("mariadb-install-db: %v\n%s", err, out)
	}
	_, port, _ = net.SplitHostPort(freeAddr(t))
	sock := filepath.Join(dir, "sock")
	args = append([]string{"--no-defaults", "--datadir=" + data, "--socket=" + sock, "--port=" + port,
		"--pid-file=" + filepath.Join(dir, "pid"), "--log-error=" + filepath.Join(dir, "err.log"),
		"--skip-log-bin", "--innodb-buffer-pool-size=16M"}, append(asUser, extra...)...)
	cmd := exec.Command(server, args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(dir, "err.log"))
			t.Logf("mariadbd log:\n%s", log)
		}
	})
	rootCfg := mysql.NewConfig()
	rootCfg.User, rootCfg.Net, rootCfg.Addr = "root", "unix", sock
	if root, err = sql.Open("mysql", rootCfg.FormatDSN()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	eventually(t, 60*time.Second, "the private mariadbd answers", func() bool { return root.Ping() == nil })
	return port, root
}

// privateRelayDSN is the DSN of database relay on a private MariaDB server.
func privateRelayDSN(user, addr string) string {
	cfg := mysql.NewConfig()
	cfg.User, cfg.Net, cfg.Addr, cfg.DBName = user, "tcp", addr, "relay"
	cfg.ParseTime, cfg.MultiStatements, cfg.Loc = true, true, time.UTC
	cfg.Params = map[string]string{"time_zone": "'+00:00'"}
	return cfg.FormatDSN()
}

// privateRelayDB creates database relay on a private MariaDB server, runs
// grants there as root, and returns dsn's handle with the generated
// migration applied (closed when the test ends).
func privateRelayDB(t *testing.T, root *sql.DB, dsn string, grants ...string) *testDB {
	t.Helper()
	for _, q := range append([]string{"CREATE DATABASE relay"}, grants...) {
		if _, err := root.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	schema, err := os.ReadFile(filepath.Join("testdata", "schema_mysql.sql"))
	if err != nil {
		t.Fatal(err)
	}
	d := &testDB{dialect: "mysql", url: dsn}
	if d.sql, err = sql.Open("mysql", d.url); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.sql.Close() })
	if _, err := d.sql.Exec(string(schema)); err != nil {
		t.Fatalf("apply generated migration: %v", err)
	}
	return d
}

// TestMySQLDatabaseTLS: the shared MariaDB has TLS off, so the test starts
// a MariaDB server of its own (mariadb-install-db into a temporary data
// directory, mariadbd on a free port and its own socket) with ssl-ca,
// ssl-cert and ssl-key it generated, and two users: relay (REQUIRE SSL)
// and relaycert (REQUIRE X509: a client certificate the CA issued).
// Without TLS flags the relay user is refused (the server enforces TLS);
// with --database-tls-ca the relay's status connects and the relay
// publishes every row to JetStream; relaycert needs
// --database-tls-cert/--database-tls-key too; another CA, or a server
// name the certificate does not carry, stops the relay at start with a
// certificate error naming the flag to check. Skips without
// mariadb-install-db or mariadbd.
func TestMySQLDatabaseTLS(t *testing.T) {
	ca := newTestCA(t, "mariadb-ca")
	other := newTestCA(t, "other-ca")
	srvCert, srvKey := ca.issueFiles(t, "server", x509.ExtKeyUsageServerAuth)
	cliCert, cliKey := ca.issueFiles(t, "client", x509.ExtKeyUsageClientAuth)
	port, root := startMariaDB(t, "a private MariaDB server with TLS", "--bind-address=127.0.0.1",
		"--ssl-ca="+ca.pemFile, "--ssl-cert="+srvCert, "--ssl-key="+srvKey)
	var haveSSL string
	if err := root.QueryRow("SELECT @@have_ssl").Scan(&haveSSL); err != nil || haveSSL != "YES" {
		t.Fatalf("private mariadbd: @@have_ssl = %q (%v), want YES", haveSSL, err)
	}
	dsn := func(user string) string { return privateRelayDSN(user, net.JoinHostPort("127.0.0.1", port)) }
	d := privateRelayDB(t, root, dsn("root"),
		"CREATE USER 'relay'@'127.0.0.1' REQUIRE SSL",
		"GRANT ALL ON relay.* TO 'relay'@'127.0.0.1'",
		"CREATE USER 'relaycert'@'127.0.0.1' REQUIRE X509",
		"GRANT ALL ON relay.* TO 'relaycert'@'127.0.0.1'")
	c := get(t, "my_jetstream")
	status := func(user string, flags ...string) (int, string) {
		return runCLI(t, c, append([]string{"status", "--database-url", dsn(user), "--json"}, flags...)...)
	}

	code, out := status("relay")
	t.Logf("counts: relay user without TLS flags: exit %d: %s", code, lastLine(out))
	if code == 0 || !strings.Contains(out, "Access denied") {
		t.Fatalf("the REQUIRE SSL user connected without TLS: exit %d\n%s", code, out)
	}
	code, out = status("relay", "--database-tls-ca", ca.pemFile)
	if code != 0 || !strings.Contains(out, `"pending":0`) {
		t.Fatalf("status over TLS with --database-tls-ca: exit %d\n%s", code, out)
	}
	code, out = status("relaycert", "--database-tls-ca", ca.pemFile)
	t.Logf("counts: REQUIRE X509 user without a client certificate: exit %d: %s", code, lastLine(out))
	if code == 0 {
		t.Fatalf("the REQUIRE X509 user connected without a client certificate:\n%s", out)
	}
	code, out = status("relaycert", "--database-tls-ca", ca.pemFile, "--database-tls-cert", cliCert, "--database-tls-key", cliKey)
	if code != 0 || !strings.Contains(out, `"pending":0`) {
		t.Fatalf("status with a client certificate: exit %d\n%s", code, out)
	}
	code, out = status("relay", "--database-tls-ca", other.pemFile)
	t.Logf("counts: wrong CA: exit %d: %s", code, lastLine(out))
	if code != 1 || !strings.Contains(out, "certificate signed by unknown authority") || !strings.Contains(out, "--database-tls-ca") {
		t.Fatalf("wrong CA: exit %d, want 1 and a certificate error naming --database-tls-ca:\n%s", code, out)
	}
	code, out = status("relay", "--database-tls-ca", ca.pemFile, "--database-tls-server-name", "db.example.com")
	t.Logf("counts: wrong server name: exit %d: %s", code, lastLine(out))
	if code != 1 || !strings.Contains(out, "db.example.com") || !strings.Contains(out, "--database-tls-server-name") {
		t.Fatalf("wrong server name: exit %d, want 1 and a certificate error naming --database-tls-server-name:\n%s", code, out)
	}

	// The relay itself, over TLS, as the REQUIRE SSL user.
	e := newJetStream(t)
	subject := e.prefix + ".orders"
	rows := d.insert(t, sequence(subject, aggregates("tls", 3), 30)...)
	relayDB := &testDB{dialect: "mysql", url: dsn("relay"), sql: d.sql}
	startRelay(t, c, fastFlags(relayDB, "--broker-url", e.url, "--database-tls-ca", ca.pemFile, "--batch-size", "8")...)
	eventually(t, 60*time.Second, "every row published over the TLS session", func() bool { return d.count(t, "published_at IS NULL") == 0 })
	got := len(e.messages(t))
	t.Logf("counts: relay over TLS (REQUIRE SSL user): rows %d, in the stream %d", len(rows), got)
	if got != len(rows) {
		t.Fatalf("stream holds %d messages, want %d", got, len(rows))
	}
}
