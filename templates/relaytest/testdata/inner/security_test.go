package relaytest

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/redis/go-redis/v9"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// testCA is a certificate authority made by the test: its certificate is
// written to a PEM file (what --broker-tls-ca gets) and it issues server
// certificates for 127.0.0.1 and localhost.
type testCA struct {
	cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	pemFile string
}

func newTestCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), name+".pem")
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key, pemFile: file}
}

// serverConfig is a TLS server configuration with a certificate the CA
// issued for 127.0.0.1 and localhost.
func (ca *testCA) serverConfig(t *testing.T) *tls.Config {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: "localhost"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}, MinVersion: tls.VersionTLS12}
}

// clientConfig trusts the CA.
func (ca *testCA) clientConfig() *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	return &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"}
}

// tlsProxy terminates TLS on a free local port and forwards the plaintext
// to target (the shared server, whose own configuration stays as it is).
func tlsProxy(t *testing.T, cfg *tls.Config, target string) string {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	return serveConns(t, ln, func(c net.Conn) {
		if err := c.(*tls.Conn).Handshake(); err != nil {
			return
		}
		dialPipe(c, target)
	})
}

// natsTLSProxy fronts the shared NATS server (plaintext) with TLS the way
// a NATS server does it: it passes the server's INFO line on with
// "tls_required":true, then upgrades the client's connection to TLS and
// forwards the plaintext to the server.
func natsTLSProxy(t *testing.T, cfg *tls.Config, target string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return serveConns(t, ln, func(c net.Conn) {
		up, err := net.Dial("tcp", target)
		if err != nil {
			return
		}
		defer up.Close()
		br := bufio.NewReader(up)
		info, err := br.ReadString('\n')
		if err != nil || !strings.HasPrefix(info, "INFO {") {
			return
		}
		info = strings.Replace(info, "INFO {", `INFO {"tls_required":true,`, 1)
		if _, err := io.WriteString(c, info); err != nil {
			return
		}
		tc := tls.Server(c, cfg)
		if err := tc.Handshake(); err != nil {
			return
		}
		// what the server sent past INFO is in br
		pipe(tc, struct {
			io.Reader
			io.Writer
		}{br, up})
	})
}

// runRelayExpectingFailure runs the relay until it exits (within 30 s) and
// returns its exit code and output.
func runRelayExpectingFailure(t *testing.T, c relayCase, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out syncBuffer
	code := c.main(ctx, append([]string{"run"}, args...), &out, &out)
	if ctx.Err() != nil {
		t.Fatalf("relay still running after 30 s (want a start-up failure):\n%s", out.String())
	}
	return code, out.String()
}

// TestBrokerTLS runs the relay over TLS to Redis, NATS and RabbitMQ
// (amqps) through a TLS-terminating proxy the test starts in front of the
// shared server (for NATS, one that upgrades after INFO as NATS does), with a CA the test made: with --broker-tls-ca the relay
// publishes every row; with another CA it stops at start, saying the
// certificate is not trusted and which flags to check.
func TestBrokerTLS(t *testing.T) {
	ca := newTestCA(t, "relay-test-ca")
	other := newTestCA(t, "other-ca")
	t.Run("redis", func(t *testing.T) {
		addr := needEnv(t, "OUTBOXIFY_REDIS_ADDR")
		proxy := tlsProxy(t, ca.serverConfig(t), addr)
		c := get(t, "pg_redis")
		rdb := redis.NewClient(&redis.Options{Addr: addr})
		defer rdb.Close()
		stream := randName("relay_tls")
		defer rdb.Del(context.Background(), stream)
		_, rows := relayToBroker(t, "pg_redis", stream, "--broker-url", "redis://"+proxy+"/0", "--broker-tls-ca", ca.pemFile)
		if n, err := rdb.XLen(context.Background(), stream).Result(); err != nil || n != int64(len(rows)) {
			t.Fatalf("stream has %d entries (%v), want %d", n, err, len(rows))
		}
		d := openDB(t, "postgres")
		code, out := runRelayExpectingFailure(t, c, fastFlags(d, "--broker-url", "redis://"+proxy+"/0", "--broker-tls-ca", other.pemFile)...)
		t.Logf("wrong CA: exit %d: %s", code, lastLine(out))
		if code != 1 || !strings.Contains(out, "certificate signed by unknown authority") || !strings.Contains(out, "--broker-tls-ca") {
			t.Fatalf("wrong CA: exit %d, want 1 and a certificate error naming --broker-tls-ca:\n%s", code, out)
		}
	})
	t.Run("nats", func(t *testing.T) {
		u := needEnv(t, "OUTBOXIFY_NATS_URL")
		pu, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		proxy := natsTLSProxy(t, ca.serverConfig(t), pu.Host)
		nc, err := nats.Connect(u)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		subject := randName("relay_tls") + ".orders"
		sub, err := nc.SubscribeSync(subject)
		if err != nil {
			t.Fatal(err)
		}
		if err := nc.Flush(); err != nil {
			t.Fatal(err)
		}
		_, rows := relayToBroker(t, "pg_nats", subject, "--broker-url", "nats://"+proxy, "--broker-tls-ca", ca.pemFile)
		for i := range rows {
			if _, err := sub.NextMsg(10 * time.Second); err != nil {
				t.Fatalf("after %d messages: %v", i, err)
			}
		}
		c := get(t, "pg_nats")
		d := openDB(t, "postgres")
		code, out := runRelayExpectingFailure(t, c, fastFlags(d, "--broker-url", "nats://"+proxy, "--broker-tls-ca", other.pemFile)...)
		t.Logf("wrong CA: exit %d: %s", code, lastLine(out))
		if code != 1 || !strings.Contains(out, "certificate signed by unknown authority") || !strings.Contains(out, "--broker-tls-ca") {
			t.Fatalf("wrong CA: exit %d, want 1 and a certificate error naming --broker-tls-ca:\n%s", code, out)
		}
	})
	t.Run("amqp091", func(t *testing.T) {
		u := needEnv(t, "OUTBOXIFY_AMQP_URL")
		pu, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		proxy := tlsProxy(t, ca.serverConfig(t), pu.Host)
		conn, err := amqp.Dial(u)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		ch, err := conn.Channel()
		if err != nil {
			t.Fatal(err)
		}
		queue := randName("relay_tls_q")
		if _, err := ch.QueueDeclare(queue, false, true, false, false, nil); err != nil {
			t.Fatal(err)
		}
		pu.Scheme, pu.Host = "amqps", proxy
		_, rows := relayToBroker(t, "pg_amqp091", queue, "--broker-url", pu.String(), "--broker-tls-ca", ca.pemFile)
		held := 0
		eventually(t, 10*time.Second, "every message in the queue", func() bool {
			q, err := ch.QueueDeclarePassive(queue, false, true, false, false, nil)
			if err != nil {
				t.Fatal(err)
			}
			held = q.Messages
			return held == len(rows)
		})
		c := get(t, "pg_amqp091")
		d := openDB(t, "postgres")
		code, out := runRelayExpectingFailure(t, c, fastFlags(d, "--broker-url", pu.String(), "--broker-tls-ca", other.pemFile)...)
		t.Logf("wrong CA: exit %d: %s", code, lastLine(out))
		if code != 1 || !strings.Contains(out, "certificate signed by unknown authority") || !strings.Contains(out, "--broker-tls-ca") {
			t.Fatalf("wrong CA: exit %d, want 1 and a certificate error naming --broker-tls-ca:\n%s", code, out)
		}
	})
}

func firstLineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// TestKafkaSASLTLS: a kfake cluster that takes only TLS (a CA the test
// made) and SASL SCRAM-SHA-256 accepts each Kafka client's relay with the
// right password (from OUTBOX_KAFKA_SASL_PASSWORD) and every row arrives;
// with a wrong password nothing is published and the relay says the
// credentials may be refused, never printing a password; with another CA
// it stops at start with a certificate error.
func TestKafkaSASLTLS(t *testing.T) {
	ca := newTestCA(t, "kafka-ca")
	other := newTestCA(t, "other-ca")
	for _, client := range []string{"franzgo", "kafkago", "sarama"} {
		t.Run(client, func(t *testing.T) {
			ident := "pg_" + client
			topic := randName("secure")
			const user, pass, wrong = "relay", "right-Pa55word", "wrong-Pa55word"
			cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, topic),
				kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-256", user, pass), kfake.TLS(ca.serverConfig(t)))
			if err != nil {
				t.Fatal(err)
			}
			defer cluster.Close()
			seeds := strings.Join(cluster.ListenAddrs(), ",")
			t.Setenv("OUTBOX_KAFKA_SASL_PASSWORD", pass)
			_, rows := relayToBroker(t, ident, topic, "--broker-url", seeds, "--broker-tls-ca", ca.pemFile,
				"--kafka-sasl", "SCRAM-SHA-256", "--kafka-sasl-user", user)
			cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.DialTLSConfig(ca.clientConfig()),
				kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha256Mechanism()),
				kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			got := 0
			for got < len(rows) && ctx.Err() == nil {
				got += cl.PollFetches(ctx).NumRecords()
			}
			if got != len(rows) {
				t.Fatalf("consumer got %d records, want %d", got, len(rows))
			}

			// Wrong password: kfake refuses it by closing the connection
			// (as Kafka before 1.0 does; later brokers answer
			// SASL_AUTHENTICATION_FAILED, which stops the relay at start).
			// Nothing is published, the relay says why it may be, and no
			// password is printed.
			c := get(t, ident)
			d := openDB(t, "postgres")
			pending := d.insert(t, row{AggregateType: topic, AggregateID: "w", Payload: `{}`})[0]
			wrongArgs := fastFlags(d, "--broker-url", seeds, "--broker-tls-ca", ca.pemFile,
				"--kafka-sasl", "SCRAM-SHA-256", "--kafka-sasl-user", user, "--kafka-sasl-password", wrong,
				"--shutdown-timeout", "1s") // the batch it cannot deliver is abandoned at stop, not waited for
			var out string
			if client == "sarama" {
				// sarama connects in NewSyncProducer and fails there.
				var code int
				code, out = runRelayExpectingFailure(t, c, wrongArgs...)
				t.Logf("wrong password: exit %d: %s", code, lastLine(out))
				if code != 1 || !strings.Contains(out, "SASL SCRAM-SHA-256") {
					t.Fatalf("wrong password: exit %d, want 1 and a SASL error:\n%s", code, out)
				}
			} else {
				r := startRelay(t, c, wrongArgs...)
				time.Sleep(3 * time.Second)
				if d.state(t, pending.ID).published {
					t.Fatal("published with a wrong SASL password")
				}
				r.stop()
				out = r.out.String()
				t.Logf("wrong password: %d rows published; relay said: %s", d.count(t, "published_at IS NOT NULL"), firstLineWith(out, "SASL"))
				if !strings.Contains(out, "refused credentials?") {
					t.Fatalf("wrong password: the relay did not say the credentials may be refused:\n%s", out)
				}
			}
			if strings.Contains(out, wrong) || strings.Contains(out, pass) {
				t.Fatalf("the relay printed a password:\n%s", out)
			}
			code, out := runRelayExpectingFailure(t, c, fastFlags(d, "--broker-url", seeds, "--broker-tls-ca", other.pemFile,
				"--kafka-sasl", "SCRAM-SHA-256", "--kafka-sasl-user", user)...)
			t.Logf("wrong CA: exit %d: %s", code, lastLine(out))
			if code != 1 || !strings.Contains(out, "certificate signed by unknown authority") {
				t.Fatalf("wrong CA: exit %d, want 1 and a certificate error:\n%s", code, out)
			}
		})
	}
}

// TestDatabaseTLS (PostgreSQL, whose shared server has ssl on with its own
// certificate for localhost, read here and left as it is): status with
// --database-tls-ca naming that certificate and --database-tls-server-name
// localhost connects, verifying it; with a CA that did not
// sign it, it fails saying the certificate is not trusted and which flag
// to check.
func TestDatabaseTLS(t *testing.T) {
	c := get(t, "pg_jetstream")
	d := openDB(t, "postgres")
	var on, certFile string
	if err := d.sql.QueryRow("SELECT current_setting('ssl'), current_setting('ssl_cert_file')").Scan(&on, &certFile); err != nil {
		t.Fatal(err)
	}
	if on != "on" {
		t.Skip("the PostgreSQL server has ssl off")
	}
	if _, err := os.Stat(certFile); err != nil {
		t.Skipf("server certificate %s not readable here: %v", certFile, err)
	}
	code, out := runCLI(t, c, "status", "--database-url", d.url, "--database-tls-ca", certFile, "--database-tls-server-name", "localhost", "--json")
	if code != 0 || !strings.Contains(out, `"pending":0`) {
		t.Fatalf("status over TLS: exit %d\n%s", code, out)
	}
	other := newTestCA(t, "other-ca")
	code, out = runCLI(t, c, "status", "--database-url", d.url, "--database-tls-ca", other.pemFile, "--database-tls-server-name", "localhost")
	t.Logf("wrong CA: exit %d: %s", code, lastLine(out))
	if code != 1 || !strings.Contains(out, "certificate signed by unknown authority") || !strings.Contains(out, "--database-tls-ca") {
		t.Fatalf("wrong CA: exit %d, want 1 and a certificate error naming --database-tls-ca:\n%s", code, out)
	}
}

// TestDatabaseTLSNoFallback (MariaDB, whose shared server has no TLS):
// with --database-tls-ca the relay does not fall back to plaintext; it
// fails, saying the server does not support TLS.
func TestDatabaseTLSNoFallback(t *testing.T) {
	c := get(t, "my_jetstream")
	d := openDB(t, "mysql")
	var haveSSL string
	if err := d.sql.QueryRow("SELECT @@have_ssl").Scan(&haveSSL); err != nil {
		t.Skipf("@@have_ssl: %v", err)
	}
	if haveSSL == "YES" {
		t.Skip("the MariaDB server has TLS on")
	}
	ca := newTestCA(t, "relay-test-ca")
	code, out := runCLI(t, c, "status", "--database-url", d.url, "--database-tls-ca", ca.pemFile)
	t.Logf("TLS against a server without it: exit %d: %s", code, lastLine(out))
	if code != 1 || !strings.Contains(out, "TLS requested but server does not support TLS") {
		t.Fatalf("status with --database-tls-ca against a server without TLS: exit %d, want 1 and no plaintext fallback:\n%s", code, out)
	}
}
