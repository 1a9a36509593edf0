package outboxrelay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"

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

// JetStreamPublisher publishes to JetStream and waits for every PubAck.
// Subject = aggregate_type (a stream must capture it); Nats-Msg-Id = outbox
// id, so JetStream drops duplicates within its duplicate window.
//
// A JetStream publish is a core NATS publish with a reply subject; the
// stream answers there with a PubAck. The publisher sends them with nats.go
// and matches the answers itself instead of using jetstream's
// PublishMsgAsync, which decodes every PubAck with encoding/json and makes a
// future with two channels per message: at 50,000 msgs/s that was about a
// fifth of the relay's CPU (docs/benchmarks.md). An answer of the form
// {"stream":...} without "error" is an ack; anything else is decoded in full
// and classified as jetstream would.
type JetStreamPublisher struct {
	nc        *nats.Conn
	sub       *nats.Subscription
	prefix    string // reply subjects: prefix + wave + "." + index
	closeConn bool

	mu    sync.Mutex
	waves map[uint64]*ackWave // waves waiting for answers, by number
	last  uint64              // number of the last wave

	// duplicates counts acks JetStream gave as duplicates (a message id
	// seen within the stream's duplicate window): acked, not delivered
	// again. Set by the relay (outbox_relay_duplicate_acks_total).
	duplicates interface{ Inc() }
}

// countDuplicates implements the relay's duplicateCounter.
func (p *JetStreamPublisher) countDuplicates(c interface{ Inc() }) { p.duplicates = c }

// ackWave is one wave of publishes waiting for its PubAcks; guarded by the
// publisher's mu.
type ackWave struct {
	errs     []error
	answered []bool
	left     int
	done     chan struct{} // closed when left reaches 0
}

func (w *ackWave) answer(i int, err error) {
	if i < 0 || i >= len(w.errs) || w.answered[i] {
		return
	}
	w.answered[i], w.errs[i] = true, err
	if w.left--; w.left == 0 {
		close(w.done)
	}
}

// jetStreamMaxPending bounds the publishes waiting for an ack, per Publish
// call, as jetstream's WithPublishAsyncMaxPending does.
const jetStreamMaxPending = 4096

// NewJetStreamPublisher publishes through nc (not closed by Close).
func NewJetStreamPublisher(nc *nats.Conn) (*JetStreamPublisher, error) {
	p := &JetStreamPublisher{nc: nc, prefix: nc.NewInbox() + ".", waves: map[uint64]*ackWave{}}
	sub, err := nc.Subscribe(p.prefix+"*.*", p.onAnswer)
	if err != nil {
		return nil, fmt.Errorf("jetstream: subscribing to the acks: %w", err)
	}
	// The answers to a batch arrive together; never drop one as a slow consumer.
	if err := sub.SetPendingLimits(-1, -1); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	p.sub = sub
	return p, nil
}

// Publish implements Publisher.
func (p *JetStreamPublisher) Publish(ctx context.Context, msgs []*Message) []error {
	errs := make([]error, len(msgs))
	if !p.nc.IsConnected() {
		// Before the first connection the client even reports "headers not
		// supported"; whatever it says, nothing was sent.
		return fillErrors(errs, Unavailable(nats.ErrDisconnected))
	}
	for start := 0; start < len(msgs); start += jetStreamMaxPending {
		end := min(start+jetStreamMaxPending, len(msgs))
		p.publishWave(ctx, msgs[start:end], errs[start:end])
	}
	return errs
}

// publishWave publishes msgs and fills errs once every answer is in or ctx
// ends.
func (p *JetStreamPublisher) publishWave(ctx context.Context, msgs []*Message, errs []error) {
	w := &ackWave{errs: errs, answered: make([]bool, len(msgs)), left: len(msgs), done: make(chan struct{})}
	p.mu.Lock()
	p.last++
	n := p.last
	p.waves[n] = w
	p.mu.Unlock()
	defer func() {
		p.mu.Lock()
		delete(p.waves, n) // late answers find nothing
		p.mu.Unlock()
	}()

	replies := replySubjects(p.prefix, n, len(msgs))
	var buf natsMsgBuf
	for i, m := range msgs {
		nm := buf.set(m)
		nm.Reply = replies[i]
		if err := p.nc.PublishMsg(nm); err != nil {
			p.mu.Lock()
			w.answer(i, natsError(err))
			p.mu.Unlock()
		}
	}
	select {
	case <-w.done:
	case <-ctx.Done():
		err := Unavailable(fmt.Errorf("waiting for the JetStream ack: %w", ctx.Err()))
		p.mu.Lock()
		for i := range msgs {
			w.answer(i, err)
		}
		p.mu.Unlock()
	}
}

// replySubjects returns prefix+wave+"."+i for every i < n, cut from one
// string (one allocation for the whole wave).
func replySubjects(prefix string, wave uint64, n int) []string {
	head := strconv.AppendUint([]byte(prefix), wave, 10)
	head = append(head, '.')
	b := make([]byte, 0, n*(len(head)+6))
	ends := make([]int, n)
	for i := 0; i < n; i++ {
		b = append(b, head...)
		b = strconv.AppendInt(b, int64(i), 10)
		ends[i] = len(b)
	}
	all := string(b)
	out := make([]string, n)
	start := 0
	for i, end := range ends {
		out[i], start = all[start:end], end
	}
	return out
}

// onAnswer records a PubAck, or the error in its place, for its wave.
func (p *JetStreamPublisher) onAnswer(m *nats.Msg) {
	rest, ok := strings.CutPrefix(m.Subject, p.prefix)
	if !ok {
		return
	}
	waveText, indexText, ok := strings.Cut(rest, ".")
	if !ok {
		return
	}
	wave, err1 := strconv.ParseUint(waveText, 10, 64)
	index, err2 := strconv.Atoi(indexText)
	if err1 != nil || err2 != nil {
		return
	}
	err := jetStreamError(pubAckError(m))
	if err == nil && p.duplicates != nil && bytes.Contains(m.Data, pubAckDuplicate) {
		// rare: decoded in full (the server writes `"duplicate": true`)
		var ack struct {
			Duplicate bool `json:"duplicate"`
		}
		if json.Unmarshal(m.Data, &ack) == nil && ack.Duplicate {
			p.duplicates.Inc()
		}
	}
	p.mu.Lock()
	if w := p.waves[wave]; w != nil {
		w.answer(index, err)
	}
	p.mu.Unlock()
}

var (
	pubAckStart     = []byte(`{"stream":`)
	pubAckErrorKey  = []byte(`"error"`)
	pubAckDuplicate = []byte(`"duplicate"`)
)

// pubAckError is nil for a PubAck, else the error the stream answered with
// (a *jetstream.APIError), jetstream.ErrNoStreamResponse when no stream
// captures the subject (a 503 status) or jetstream.ErrInvalidJSAck.
func pubAckError(m *nats.Msg) error {
	if len(m.Data) == 0 && m.Header.Get("Status") == "503" {
		return jetstream.ErrNoStreamResponse
	}
	// The server writes a PubAck as {"stream":"NAME","seq":N,...} and an
	// error as {"error":{...}}; only the first shape skips decoding.
	if bytes.HasPrefix(m.Data, pubAckStart) && !bytes.Contains(m.Data, pubAckErrorKey) {
		return nil
	}
	var ack struct {
		Error  *jetstream.APIError `json:"error"`
		Stream string              `json:"stream"`
	}
	if err := json.Unmarshal(m.Data, &ack); err != nil {
		return jetstream.ErrInvalidJSAck
	}
	if ack.Error != nil {
		return ack.Error
	}
	if ack.Stream == "" {
		return jetstream.ErrInvalidJSAck
	}
	return nil
}

// jetStreamError: an API error with a 5xx code, no stream answering (no
// responders: the stream is missing or electing a leader) and connection
// problems are "unavailable"; other API errors (message too large, wrong
// expected sequence) are rejections.
func jetStreamError(err error) error {
	if err == nil {
		return nil // before apiErr, which escapes: no allocation per ack
	}
	var apiErr *jetstream.APIError
	switch {
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
	return p.sub.Unsubscribe()
}
