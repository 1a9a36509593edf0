package outboxrelay

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"os"
)

// tlsFlags are the TLS flags of one connection, the broker's or the
// database's: the CA certificates to verify the server with, a client
// certificate and key, and the name the server's certificate must carry.
type tlsFlags struct {
	prefix                    string // broker | database
	on                        bool
	ca, cert, key, serverName string
}

func (t *tlsFlags) register(fs *flag.FlagSet, prefix, what string) {
	t.prefix = prefix
	fs.BoolVar(&t.on, prefix+"-tls", false, "connect to "+what+" over TLS (implied by any other --"+prefix+"-tls-* flag)")
	fs.StringVar(&t.ca, prefix+"-tls-ca", "", "PEM file of the CA certificates "+what+"'s certificate must chain to (default: the system's roots)")
	fs.StringVar(&t.cert, prefix+"-tls-cert", "", "PEM file of the client certificate to present to "+what+" (with --"+prefix+"-tls-key)")
	fs.StringVar(&t.key, prefix+"-tls-key", "", "PEM file of the private key of --"+prefix+"-tls-cert")
	fs.StringVar(&t.serverName, prefix+"-tls-server-name", "", "name "+what+"'s certificate must carry (default: the host dialled)")
}

// config returns the TLS configuration the flags ask for, or nil when they
// ask for none. Errors name the flag and the file, never a key's content.
func (t *tlsFlags) config() (*tls.Config, error) {
	if !t.on && t.ca == "" && t.cert == "" && t.key == "" && t.serverName == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: t.serverName}
	if t.ca != "" {
		pem, err := os.ReadFile(t.ca)
		if err != nil {
			return nil, usageError{fmt.Errorf("--%s-tls-ca: %w", t.prefix, err)}
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, usageError{fmt.Errorf("--%s-tls-ca %s: no PEM certificate in the file", t.prefix, t.ca)}
		}
		cfg.RootCAs = pool
	}
	if (t.cert == "") != (t.key == "") {
		return nil, usageError{fmt.Errorf("--%s-tls-cert and --%s-tls-key go together", t.prefix, t.prefix)}
	}
	if t.cert != "" {
		pair, err := tls.LoadX509KeyPair(t.cert, t.key)
		if err != nil {
			return nil, usageError{fmt.Errorf("--%s-tls-cert %s / --%s-tls-key %s: %w", t.prefix, t.cert, t.prefix, t.key, err)}
		}
		cfg.Certificates = []tls.Certificate{pair}
	}
	return cfg, nil
}

// tlsFailure reports whether err is a TLS failure that no retry cures: a
// server certificate that does not chain to the CA or does not carry the
// expected name, a server refusing the client certificate, or a server
// that does not speak TLS. The relay stops with it at start instead of
// waiting for the server as if it were down.
func tlsFailure(err error) bool {
	var (
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		header   tls.RecordHeaderError
		alert    tls.AlertError
	)
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &header) || errors.As(err, &alert)
}

// tlsHint adds what to check to a TLS failure's message.
func tlsHint(err error, prefix string) error {
	return fmt.Errorf("TLS handshake failed (check --%s-tls-ca, --%s-tls-server-name and the client certificate): %w", prefix, prefix, err)
}
