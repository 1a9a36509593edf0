// Package backoff is a stub of github.com/cenkalti/backoff/v4.
package backoff

import "time"

type Operation func() error

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type ExponentialBackOff struct {
	InitialInterval time.Duration
	MaxElapsedTime  time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration { return b.InitialInterval }
func (b *ExponentialBackOff) Reset()                     {}

func NewExponentialBackOff() *ExponentialBackOff { return &ExponentialBackOff{} }

// Retry runs o until it succeeds or b stops.
func Retry(o Operation, b BackOff) error {
	for {
		err := o()
		if err == nil {
			return nil
		}
		if b.NextBackOff() < 0 {
			return err
		}
	}
}
