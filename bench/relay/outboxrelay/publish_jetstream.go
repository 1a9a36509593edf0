package outboxrelay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func (b *brokerOptions) open(ctx context.Context, log *slog.Logger) (Publisher, error) {
	nc, err := b.connect(ctx, log)
	if err != nil {
		return nil, err
	}
	p, err := NewJetStreamPublisher(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	p.closeConn = true
	return p, nil
}

// JetStreamPublisher publishes with JetStream async publishes and waits for
// every PubAck. Subject = aggregate_type (a stream must capture it);
// Nats-Msg-Id = outbox id, so JetStream drops duplicates within its
// duplicate window.
type JetStreamPublisher struct {
	nc        *nats.Conn
	js        jetstream.JetStream
	closeConn bool
}

// NewJetStreamPublisher publishes through nc (not closed by Close).
func NewJetStreamPublisher(nc *nats.Conn) (*JetStreamPublisher, error) {
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	return &JetStreamPublisher{nc: nc, js: js}, nil
}

// Publish implements Publisher.
func (p *JetStreamPublisher) Publish(ctx context.Context, msgs []*Message) []error {
	errs := make([]error, len(msgs))
	if !p.nc.IsConnected() {
		// Before the first connection the client even reports "headers not
		// supported"; whatever it says, nothing was sent.
		return fillErrors(errs, Unavailable(nats.ErrDisconnected))
	}
	acks := make([]jetstream.PubAckFuture, len(msgs))
	for i, m := range msgs {
		f, err := p.js.PublishMsgAsync(natsMsg(m))
		if err != nil {
			errs[i] = jetStreamError(err)
			continue
		}
		acks[i] = f
	}
	for i, f := range acks {
		if f == nil {
			continue
		}
		select {
		case <-f.Ok():
		case err := <-f.Err():
			errs[i] = jetStreamError(err)
		case <-ctx.Done():
			errs[i] = Unavailable(fmt.Errorf("waiting for the JetStream ack: %w", ctx.Err()))
		}
	}
	return errs
}

// jetStreamError: an API error with a 5xx code, no stream answering (no
// responders: the stream is missing or electing a leader) and connection
// problems are "unavailable"; other API errors (message too large, wrong
// expected sequence) are rejections.
func jetStreamError(err error) error {
	var apiErr *jetstream.APIError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &apiErr):
		if apiErr.Code >= 500 {
			return Unavailable(err)
		}
		return err
	case errors.Is(err, jetstream.ErrNoStreamResponse), errors.Is(err, jetstream.ErrAsyncPublishTimeout),
		errors.Is(err, jetstream.ErrTooManyStalledMsgs):
		return Unavailable(err)
	}
	return natsError(err)
}

// Close implements Publisher.
func (p *JetStreamPublisher) Close() error {
	if p.closeConn {
		return p.nc.Drain()
	}
	return nil
}
