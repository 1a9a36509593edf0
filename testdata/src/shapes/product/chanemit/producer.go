package chanemit

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

// Msg is a message for the async producer (teranode's kafka.Message).
type Msg struct {
	Subject string
	Data    []byte
}

// Producer is started with the channel its caller sends on.
type Producer interface {
	Start(ctx context.Context, ch chan *Msg)
}

// AsyncProducer keeps the channel it was started with and publishes what
// arrives on it, in a goroutine.
type AsyncProducer struct {
	publishCh chan *Msg
	nc        *nats.Conn
}

func (p *AsyncProducer) Start(ctx context.Context, ch chan *Msg) {
	go func() {
		p.publishCh = ch
		go func() {
			c := p.publishCh
			for m := range c {
				p.nc.Publish(m.Subject, m.Data)
			}
		}()
	}()
}

// Publish hands a message to the running producer, through a local copy
// of its channel.
func (p *AsyncProducer) Publish(m *Msg) {
	ch := p.publishCh
	ch <- m
}

// Validator stores a transaction, then publishes its metadata through the
// producer's Publish.
type Validator struct {
	db       *sql.DB
	producer *AsyncProducer
}

func (v *Validator) Validate(ctx context.Context, id string) error {
	if _, err := v.db.ExecContext(ctx, "INSERT INTO txs (id) VALUES ($1)", id); err != nil {
		return err
	}
	v.producer.Publish(&Msg{Subject: "txmeta", Data: []byte(id)})
	return nil
}

// Chain stores blocks and announces them on the producer's channel.
type Chain struct {
	db       *sql.DB
	producer Producer
	msgs     chan *Msg
}

func (c *Chain) Init(ctx context.Context) {
	c.msgs = make(chan *Msg, 100)
	c.producer.Start(ctx, c.msgs)
}

// AddBlock inserts the block, then hands its announcement to the producer:
// a dual write through the channel.
func (c *Chain) AddBlock(ctx context.Context, id string) error {
	if _, err := c.db.ExecContext(ctx, "INSERT INTO blocks (id) VALUES ($1)", id); err != nil {
		return err
	}
	c.msgs <- &Msg{Subject: "blocks.final", Data: []byte(id)}
	return nil
}
