package outboxrelay

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"
)

// Header names every publisher sets (as a header, attribute or stream field).
const (
	HeaderOutboxID    = "outbox-id"    // the outbox row id; consumers deduplicate by it
	HeaderEventType   = "event-type"   // the row's event_type
	HeaderAggregateID = "aggregate-id" // the row's aggregate_id, for brokers without a message key
	// headerTransferEncoding marks a payload the writer stored as a JSON
	// string of base64 because it was not JSON; the relay decodes it and
	// drops the header.
	headerTransferEncoding = "content-transfer-encoding"
)

// Message is one outbox row as the relay publishes it.
type Message struct {
	ID            string            // outbox id: broker dedupe id and outbox-id header
	Seq           int64             // insert order
	AggregateType string            // destination: topic, subject, stream, exchange/routing key
	AggregateID   string            // broker key; order is kept per aggregate
	EventType     string            // event-type header
	Payload       []byte            // body; base64-stored payloads already decoded
	Binary        bool              // Payload was stored as base64 (not JSON)
	Headers       map[string]string // the row's headers (traceparent kept)
	Attempts      int               // failed publish attempts so far
	CreatedAt     time.Time

	decodeErr error // the stored row could not be decoded; not published
}

// BrokerHeaders returns the row's headers plus outbox-id and event-type, the
// set every publisher sends. The relay's own headers win over row headers of
// the same name.
func (m *Message) BrokerHeaders() map[string]string {
	h := make(map[string]string, len(m.Headers)+2)
	for k, v := range m.Headers {
		h[k] = v
	}
	h[HeaderOutboxID] = m.ID
	h[HeaderEventType] = m.EventType
	return h
}

// decodeRow turns the stored payload and headers columns into a message body
// and header map.
func decodeRow(m *Message, payload, headers []byte) error {
	m.Payload = payload
	if len(headers) == 0 || string(headers) == "{}" {
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(headers, &raw); err != nil {
		return fmt.Errorf("outbox row %s: headers are not a JSON object: %w", m.ID, err)
	}
	if len(raw) == 0 {
		return nil
	}
	m.Headers = make(map[string]string, len(raw))
	for k, v := range raw {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			s = string(v) // a non-string header value travels as its JSON text
		}
		m.Headers[k] = s
	}
	if strings.EqualFold(m.Headers[headerTransferEncoding], "base64") {
		var encoded string
		if err := json.Unmarshal(payload, &encoded); err != nil {
			return fmt.Errorf("outbox row %s: header %s=base64 but the payload is not a JSON string: %w", m.ID, headerTransferEncoding, err)
		}
		body, err := base64.StdEncoding.DecodeString(encoded)
		if err != nil {
			return fmt.Errorf("outbox row %s: payload is not valid base64: %w", m.ID, err)
		}
		m.Payload = body
		m.Binary = true
		delete(m.Headers, headerTransferEncoding)
	}
	return nil
}

// Publisher sends messages to the broker.
type Publisher interface {
	// Publish sends every message and waits until the broker acknowledged
	// each one. It returns one error per message, in the order of msgs; nil
	// means acknowledged. Wrap errors that mean "the broker could not be
	// reached" with Unavailable (network errors and timeouts count as such
	// without wrapping): they do not use up the message's attempts. Any other
	// error is a rejection and does.
	Publish(ctx context.Context, msgs []*Message) []error
	// Close releases the broker client.
	Close() error
}

// unavailableError marks a publish that failed because the broker could not
// be reached, as opposed to a broker that rejected the message.
type unavailableError struct{ err error }

func (e *unavailableError) Error() string { return "broker unavailable: " + e.err.Error() }
func (e *unavailableError) Unwrap() error { return e.err }

// Unavailable marks err as "broker unreachable": the relay retries the
// message without counting an attempt.
func Unavailable(err error) error {
	if err == nil {
		return nil
	}
	return &unavailableError{err}
}

// IsUnavailable reports whether err means the broker could not be reached
// (marked with Unavailable, a timeout, a failed dial, a closed or reset
// connection) rather than that it rejected the message.
//
// Only connection-level errors count: a net.Error whose Timeout() is false
// is not enough, because some clients' protocol error codes implement
// net.Error (kafka-go's kafka.Error has Timeout and Temporary), and a broker
// that answers with an error code was reached. Publishers classify their
// client's own error types and wrap the retriable ones with Unavailable.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var u *unavailableError
	if errors.As(err, &u) {
		return true
	}
	var timeout interface{ Timeout() bool }
	var opErr *net.OpError
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.ErrClosedPipe), errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ETIMEDOUT), errors.Is(err, syscall.EHOSTUNREACH),
		errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.ENETDOWN),
		errors.As(err, &opErr), errors.As(err, &dnsErr),
		errors.As(err, &timeout) && timeout.Timeout():
		return true
	}
	return false
}

// publishEach runs publish for every message on up to workers goroutines and
// collects the errors in order; for brokers whose client has no batch call
// that waits for acks.
func publishEach(ctx context.Context, msgs []*Message, workers int, publish func(context.Context, *Message) error) []error {
	errs := make([]error, len(msgs))
	if workers < 1 {
		workers = 1
	}
	next := make(chan int)
	done := make(chan struct{})
	for w := 0; w < workers && w < len(msgs); w++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range next {
				errs[i] = publish(ctx, msgs[i])
			}
		}()
	}
	for i := range msgs {
		next <- i
	}
	close(next)
	for w := 0; w < workers && w < len(msgs); w++ {
		<-done
	}
	return errs
}

// fillErrors sets every nil entry of errs to err.
func fillErrors(errs []error, err error) []error {
	for i := range errs {
		if errs[i] == nil {
			errs[i] = err
		}
	}
	return errs
}
