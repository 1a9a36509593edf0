package relaytest

import (
	"encoding/base64"
	"encoding/json"
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
// holds the seed or the password. (.creds files: TestNATSCredsFile.)
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

// natsJWT makes a NATS JWT (what nsc makes): claims for sub, signed by
// signer's nkey; exp, when set, is its expiry.
func natsJWT(t *testing.T, signer nkeys.KeyPair, sub string, exp time.Time, claims map[string]any) string {
	t.Helper()
	iss, err := signer.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	c := map[string]any{"jti": randName("jti"), "iat": time.Now().Add(-time.Minute).Unix(), "iss": iss, "sub": sub, "name": "relaytest", "nats": claims}
	if !exp.IsZero() {
		c["exp"] = exp.Unix()
	}
	body, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding
	signed := enc.EncodeToString([]byte(`{"typ":"JWT","alg":"ed25519-nkey"}`)) + "." + enc.EncodeToString(body)
	sig, err := signer.Sign([]byte(signed))
	if err != nil {
		t.Fatal(err)
	}
	return signed + "." + enc.EncodeToString(sig)
}

// credsFile writes a .creds file for a new user of account acc; it returns
// the file and the user's seed.
func credsFile(t *testing.T, name string, acc nkeys.KeyPair, exp time.Time) (file, seed string) {
	t.Helper()
	seed, pub := newUserSeed(t)
	jwt := natsJWT(t, acc, pub, exp, map[string]any{"type": "user", "version": 2, "subs": -1, "data": -1, "payload": -1})
	return writeFile(t, name+".creds", fmt.Sprintf("-----BEGIN NATS USER JWT-----\n%s\n------END NATS USER JWT------\n\n"+
		"-----BEGIN USER NKEY SEED-----\n%s\n------END USER NKEY SEED------\n", jwt, seed)), seed
}

// TestNATSCredsFile: a nats-server of the test's own in operator mode (an
// operator, an account preloaded in a memory resolver, JWTs signed with
// nkeys made by the test: what nsc would write). The relay (core NATS,
// PostgreSQL and MariaDB) publishes every row with --nats-creds. A .creds
// file whose user an unknown account signed, and one whose JWT has
// expired, stop the relay at start (exit 1, NATS refused the
// credentials); --nats-creds with --nats-nkey is a usage error; the
// output never holds a seed.
func TestNATSCredsFile(t *testing.T) {
	op, err := nkeys.CreateOperator()
	if err != nil {
		t.Fatal(err)
	}
	acc, err := nkeys.CreateAccount()
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := nkeys.CreateAccount()
	if err != nil {
		t.Fatal(err)
	}
	opPub, _ := op.PublicKey()
	accPub, _ := acc.PublicKey()
	opJWT := natsJWT(t, op, opPub, time.Time{}, map[string]any{"type": "operator", "version": 2})
	accJWT := natsJWT(t, op, accPub, time.Time{}, map[string]any{"type": "account", "version": 2,
		"limits": map[string]any{"subs": -1, "data": -1, "payload": -1, "imports": -1, "exports": -1, "wildcards": true, "conn": -1, "leaf": -1}})
	addr := privateNATS(t, fmt.Sprintf("operator: %s\nresolver: MEMORY\nresolver_preload: {\n  %s: %s\n}", opJWT, accPub, accJWT))

	good, goodSeed := credsFile(t, "relay", acc, time.Time{})
	nc, err := nats.Connect("nats://"+addr, nats.UserCredentials(good))
	if err != nil {
		t.Fatalf("test subscriber with the .creds file: %v", err)
	}
	defer nc.Close()
	forDatabases(t, "nats", func(t *testing.T, ident string) {
		subject := randName("relay_creds") + ".orders"
		sub, err := nc.SubscribeSync(subject)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Unsubscribe()
		if err := nc.Flush(); err != nil {
			t.Fatal(err)
		}
		_, rows := relayToBroker(t, ident, subject, "--broker-url", "nats://"+addr, "--nats-creds", good)
		for i := range rows {
			if _, err := sub.NextMsg(10 * time.Second); err != nil {
				t.Fatalf("after %d of %d messages: %v", i, len(rows), err)
			}
		}
		t.Logf("counts: %s creds: rows %d, received %d", ident, len(rows), len(rows))
	})

	unknown, unknownSeed := credsFile(t, "unknown", stranger, time.Time{})
	expired, expiredSeed := credsFile(t, "expired", acc, time.Now().Add(-time.Minute))
	seedFile := writeFile(t, "user.nk", goodSeed+"\n")
	c := get(t, "pg_nats")
	for _, bad := range []struct {
		name, want, creds string
		code              int
		extra             []string
		seed              string
	}{
		{"unknown account", "NATS refused the credentials", unknown, 1, nil, unknownSeed},
		{"expired", "NATS refused the credentials", expired, 1, nil, expiredSeed},
		{"creds and nkey", "--nats-creds and --nats-nkey", good, 2, []string{"--nats-nkey", seedFile}, goodSeed},
	} {
		t.Run(bad.name, func(t *testing.T) {
			d := openDB(t, "postgres")
			code, out := runRelayExpectingFailure(t, c, fastFlags(d, append([]string{"--broker-url", "nats://" + addr, "--nats-creds", bad.creds}, bad.extra...)...)...)
			t.Logf("counts: %s: exit %d: %s", bad.name, code, lastLine(out))
			if code != bad.code || !strings.Contains(out, bad.want) {
				t.Errorf("%s: exit %d, want %d and %q:\n%s", bad.name, code, bad.code, bad.want, out)
			}
			if strings.Contains(out, bad.seed) {
				t.Errorf("%s: the relay's output holds the seed:\n%s", bad.name, out)
			}
		})
	}
}
