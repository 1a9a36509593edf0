package outboxrelay

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	neturl "net/url"
	"strings"

	"github.com/nats-io/nats.go"
)

// brokerOptions are the NATS flags of the run command.
type brokerOptions struct {
	url   string
	creds string
	nkey  string
	name  string
	tls   tlsFlags
}

func (b *brokerOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&b.url, "broker-url", nats.DefaultURL, "NATS server URL(s), comma-separated (user:password@ in the URL, or --nats-creds, or --nats-nkey)")
	fs.StringVar(&b.creds, "nats-creds", "", "NATS credentials file: user JWT and nkey seed (optional)")
	fs.StringVar(&b.nkey, "nats-nkey", "", "file holding a NATS user nkey seed (SU...) to authenticate with (optional)")
	fs.StringVar(&b.name, "nats-name", "outbox-relay", "NATS connection name")
	b.tls.register(fs, "broker", "NATS")
}

// connect dials NATS and keeps reconnecting forever: while disconnected,
// publishes fail as "unavailable" and do not use up attempts. It starts
// even while NATS is down (RetryOnFailedConnect): publishes fail as
// unavailable (no attempt used) until the connection is up.
func (b *brokerOptions) connect(ctx context.Context, log *slog.Logger) (*nats.Conn, error) {
	opts := []nats.Option{
		nats.Name(b.name),
		nats.MaxReconnects(-1),
		// No reconnect buffer: while disconnected a publish fails at once
		// (unavailable) instead of going out later, behind newer messages.
		nats.ReconnectBufSize(-1),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			log.Warn("NATS disconnected", "err", err)
		}),
		nats.ReconnectHandler(func(c *nats.Conn) {
			log.Info("NATS reconnected", "url", c.ConnectedUrlRedacted())
		}),
	}
	if b.creds != "" && b.nkey != "" {
		return nil, usageError{errors.New("--nats-creds and --nats-nkey: give one")}
	}
	if b.creds != "" {
		opts = append(opts, nats.UserCredentials(b.creds))
	}
	if b.nkey != "" {
		opt, err := nats.NkeyOptionFromSeed(b.nkey)
		if err != nil {
			return nil, usageError{fmt.Errorf("--nats-nkey %s: %w", b.nkey, err)}
		}
		opts = append(opts, opt)
	}
	tc, err := b.tls.config()
	if err != nil {
		return nil, err
	}
	if tc != nil {
		opts = append(opts, nats.Secure(tc))
	}
	url := strings.TrimSpace(b.url)
	if tc != nil || b.creds != "" || b.nkey != "" || natsURLHasAuth(url) {
		// One attempt first: a certificate or a credential the server
		// refuses (a seed, a creds file, or user:password@ or token@ in
		// the URL) stops the relay here, with the reason, instead of being
		// retried forever as if NATS were down.
		nc, err := nats.Connect(url, opts...)
		switch {
		case err == nil:
			return nc, nil
		case tlsFailure(err):
			return nil, tlsHint(err, "broker")
		case errors.Is(err, nats.ErrAuthorization), errors.Is(err, nats.ErrAuthExpired), errors.Is(err, nats.ErrAuthRevoked):
			return nil, fmt.Errorf("NATS refused the credentials: %w", err)
		}
	}
	return nats.Connect(url, append(opts, nats.RetryOnFailedConnect(true))...)
}

// natsURLHasAuth reports whether one of the comma-separated NATS URLs
// carries credentials (user:password@ or token@).
func natsURLHasAuth(urls string) bool {
	for _, s := range strings.Split(urls, ",") {
		if u, err := neturl.Parse(strings.TrimSpace(s)); err == nil && u.User != nil {
			return true
		}
	}
	return false
}

// natsMsgBuf builds the NATS message of each row in turn, reusing one
// nats.Msg and its header map: PublishMsg copies subject, headers and data
// into the connection's buffer before it returns, and a fresh message with
// four header slices per row was a visible share of the relay's CPU.
// Subject = aggregate_type; headers = the row's headers, outbox-id,
// event-type, aggregate-id (NATS has no message key) and Nats-Msg-Id = outbox
// id (JetStream deduplicates by it).
type natsMsgBuf struct {
	msg  nats.Msg
	vals [4]string // backs the four headers every message carries
}

// set points the buffer at m and returns the message to publish; it is valid
// until the next call.
func (b *natsMsgBuf) set(m *Message) *nats.Msg {
	if b.msg.Header == nil {
		b.msg.Header = make(nats.Header, 8)
	} else {
		clear(b.msg.Header)
	}
	for k, v := range m.Headers {
		b.msg.Header[k] = []string{v}
	}
	b.vals = [4]string{m.ID, m.EventType, m.AggregateID, m.ID}
	b.msg.Header[HeaderOutboxID] = b.vals[0:1:1]
	b.msg.Header[HeaderEventType] = b.vals[1:2:2]
	b.msg.Header[HeaderAggregateID] = b.vals[2:3:3]
	b.msg.Header["Nats-Msg-Id"] = b.vals[3:4:4]
	b.msg.Subject, b.msg.Data, b.msg.Reply = m.AggregateType, m.Payload, ""
	return &b.msg
}

// natsError sorts a NATS client error into unavailable (retried without
// using an attempt) or rejected.
func natsError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, nats.ErrMaxPayload), errors.Is(err, nats.ErrBadSubject), errors.Is(err, nats.ErrHeadersNotSupported):
		return err
	case errors.Is(err, nats.ErrConnectionClosed), errors.Is(err, nats.ErrConnectionReconnecting),
		errors.Is(err, nats.ErrDisconnected), errors.Is(err, nats.ErrTimeout), errors.Is(err, nats.ErrNoServers),
		errors.Is(err, nats.ErrConnectionDraining), errors.Is(err, nats.ErrNoResponders),
		errors.Is(err, nats.ErrStaleConnection), errors.Is(err, nats.ErrReconnectBufExceeded):
		return Unavailable(err)
	}
	return err
}
