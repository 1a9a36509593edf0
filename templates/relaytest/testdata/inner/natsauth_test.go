package relaytest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// privateNATS starts a nats-server of the test's own on a free port with
// the given configuration body (listen is added); it is stopped when the
// test ends. Skips when there is no nats-server binary.
func privateNATS(t *testing.T, conf string) string {
	t.Helper()
	bin := "/usr/sbin/nats-server"
	if _, err := os.Stat(bin); err != nil {
		if bin, err = exec.LookPath("nats-server"); err != nil {
			t.Skip("no nats-server binary")
		}
	}
	addr := freeAddr(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(file, []byte(fmt.Sprintf("listen: %q\n%s\n", addr, conf)), 0o600); err != nil {
		t.Fatal(err)
	}
	out := &syncBuffer{}
	cmd := exec.Command(bin, "-c", file)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("nats-server output:\n%s", out)
		}
	})
	eventually(t, 10*time.Second, "the private nats-server listens", func() bool {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	return addr
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func newUserSeed(t *testing.T) (seed, public string) {
	t.Helper()
	kp, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	s, err := kp.Seed()
	if err != nil {
		t.Fatal(err)
	}
	p, err := kp.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	return string(s), p
}

// TestNATSCredentials: a nats-server of the test's own that admits only an
// nkey user and a user/password user (config written by the test). The
// relay (core NATS, PostgreSQL and MariaDB) publishes every row with
// --nats-nkey (a seed file) and with user:password in --broker-url. A seed
// the server does not know and a wrong password each stop the relay at
// start (exit 1) saying NATS refused the credentials; a file that holds no
// seed is a usage error (exit 2) naming --nats-nkey; the output never
// holds the seed or the password.
// (.creds files are not tested: they need an operator/account JWT setup,
// and nsc is not installed.)
func TestNATSCredentials(t *testing.T) {
	seed, pub := newUserSeed(t)
	otherSeed, _ := newUserSeed(t)
	const user, pass, wrongPass = "relay", "Nats-Pa55word-right", "Nats-Pa55word-wrong"
	addr := privateNATS(t, fmt.Sprintf(`authorization {
  users: [
    { nkey: %q }
    { user: %q, password: %q }
  ]
}`, pub, user, pass))
	seedFile := writeFile(t, "user.nk", seed+"\n")

	// the test's own subscriber, as the nkey user
	subOpt, err := nats.NkeyOptionFromSeed(seedFile)
	if err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect("nats://"+addr, subOpt)
	if err != nil {
		t.Fatalf("test subscriber: %v", err)
	}
	defer nc.Close()
	if _, err := nats.Connect("nats://" + addr); err == nil {
		t.Fatal("the private server admits a client without credentials")
	}

	forDatabases(t, "nats", func(t *testing.T, ident string) {
		for _, how := range []struct {
			name string
			args []string
		}{
			{"nkey", []string{"--broker-url", "nats://" + addr, "--nats-nkey", seedFile}},
			{"password", []string{"--broker-url", fmt.Sprintf("nats://%s:%s@%s", user, pass, addr)}},
		} {
			t.Run(how.name, func(t *testing.T) {
				subject := randName("relay_auth") + ".orders"
				sub, err := nc.SubscribeSync(subject)
				if err != nil {
					t.Fatal(err)
				}
				defer sub.Unsubscribe()
				if err := nc.Flush(); err != nil {
					t.Fatal(err)
				}
				_, rows := relayToBroker(t, ident, subject, how.args...)
				for i := range rows {
					if _, err := sub.NextMsg(10 * time.Second); err != nil {
						t.Fatalf("after %d of %d messages: %v", i, len(rows), err)
					}
				}
				t.Logf("counts: %s %s: rows %d, received %d", ident, how.name, len(rows), len(rows))
			})
		}
	})

	c := get(t, "pg_nats")
	for _, bad := range []struct {
		name, want string
		code       int // 1: refused at start; 2: a usage error (the flag's file is no seed)
		secrets    []string
		args       []string
	}{
		{"unknown seed", "NATS refused the credentials", 1, []string{otherSeed, seed},
			[]string{"--broker-url", "nats://" + addr, "--nats-nkey", writeFile(t, "other.nk", otherSeed+"\n")}},
		{"not a seed", "--nats-nkey", 2, []string{"SUNOTASEEDBUTASECRETLOOKINGSTRING"},
			[]string{"--broker-url", "nats://" + addr, "--nats-nkey", writeFile(t, "bad.nk", "SUNOTASEEDBUTASECRETLOOKINGSTRING\n")}},
		{"wrong password", "NATS refused the credentials", 1, []string{wrongPass, pass},
			[]string{"--broker-url", fmt.Sprintf("nats://%s:%s@%s", user, wrongPass, addr)}},
	} {
		t.Run(bad.name, func(t *testing.T) {
			d := openDB(t, "postgres")
			code, out := runRelayExpectingFailure(t, c, fastFlags(d, bad.args...)...)
			t.Logf("counts: %s: exit %d: %s", bad.name, code, lastLine(out))
			if code != bad.code || !strings.Contains(out, bad.want) {
				t.Errorf("%s: exit %d, want %d and %q:\n%s", bad.name, code, bad.code, bad.want, out)
			}
			for _, s := range bad.secrets {
				if strings.Contains(out, s) {
					t.Errorf("%s: the relay's output holds a secret (%.6s...):\n%s", bad.name, s, out)
				}
			}
		})
	}
}
