// Package charge is a stub of github.com/stripe/stripe-go/v76/charge for fixtures.
package charge

type Params struct {
	Amount         int64
	IdempotencyKey *string
}

type Charge struct{ ID string }

func New(params *Params) (*Charge, error) { return nil, nil }
