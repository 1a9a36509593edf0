// Package relayglue has the shape of the relay outboxify generates: a
// store interface whose PostgreSQL implementation claims outbox rows in a
// pgx batch (SELECT ... FROM outbox ... FOR UPDATE SKIP LOCKED), a
// publisher interface, workers in goroutines, a LISTEN connection, and a
// mark (UPDATE outbox SET published_at) that commits. A relay: silent.
package relayglue

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/segmentio/kafka-go"
)

type Message struct {
	Seq     int64
	Topic   string
	Payload []byte
}

type store interface {
	claim(ctx context.Context, shard, limit int) (batchTx, []*Message, error)
	listen(ctx context.Context, wake func()) bool
}

type batchTx interface {
	complete(ctx context.Context, published []int64) error
	rollback()
}

// Publisher publishes a wave of messages and returns one error per message.
type Publisher interface {
	Publish(ctx context.Context, msgs []*Message) []error
}

type Relay struct {
	store store
	pub   Publisher
}

func (r *Relay) Run(ctx context.Context) error {
	wake := make(chan struct{}, 1)
	r.store.listen(ctx, func() { wake <- struct{}{} })
	var wg sync.WaitGroup
	for shard := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.worker(ctx, shard, wake)
		}()
	}
	wg.Wait()
	return nil
}

func (r *Relay) worker(ctx context.Context, shard int, wake <-chan struct{}) {
	for ctx.Err() == nil {
		if _, err := r.runBatch(ctx, shard); err != nil {
			time.Sleep(time.Second) // backoff
			continue
		}
		select {
		case <-ctx.Done():
		case <-wake:
		case <-time.After(time.Second):
		}
	}
}

// runBatch claims, publishes, marks and commits.
func (r *Relay) runBatch(ctx context.Context, shard int) (int, error) {
	tx, msgs, err := r.store.claim(ctx, shard, 100)
	if err != nil || len(msgs) == 0 {
		return 0, err
	}
	defer tx.rollback()
	errs := r.pub.Publish(ctx, msgs)
	var published []int64
	for i, m := range msgs {
		if errs[i] == nil {
			published = append(published, m.Seq)
		}
	}
	return len(published), tx.complete(ctx, published)
}

const (
	claimSQL = `SELECT o.seq, o.aggregate_type, o.payload
FROM outbox o
WHERE o.published_at IS NULL
ORDER BY o.seq
LIMIT $1
FOR UPDATE OF o SKIP LOCKED`
	markSQL = `UPDATE outbox SET published_at = now() WHERE seq = ANY($1::int8[])`
)

type pgStore struct{ pool *pgxpool.Pool }

func (s *pgStore) claim(ctx context.Context, shard, limit int) (batchTx, []*Message, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	tx := &pgBatch{conn: conn}
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(claimSQL, limit)
	br := conn.SendBatch(ctx, b)
	if _, err := br.Exec(); err != nil {
		tx.rollback()
		return nil, nil, err
	}
	if _, err := br.Query(); err != nil {
		tx.rollback()
		return nil, nil, err
	}
	return tx, nil, br.Close()
}

func (s *pgStore) listen(ctx context.Context, wake func()) bool {
	if _, err := s.pool.Exec(ctx, "SELECT pg_notify($1, $2)", "outbox", "selftest"); err != nil {
		return false
	}
	conn, err := s.listenConn(ctx)
	if err != nil {
		return false
	}
	go func() {
		_ = conn
		wake()
	}()
	return true
}

func (s *pgStore) listenConn(ctx context.Context) (*pgx.Conn, error) {
	var conn *pgx.Conn
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{"outbox"}[0]); err != nil {
		return nil, err
	}
	return conn, nil
}

type pgBatch struct{ conn *pgxpool.Conn }

func (t *pgBatch) complete(ctx context.Context, published []int64) error {
	b := &pgx.Batch{}
	b.Queue(markSQL, published)
	b.Queue("COMMIT")
	br := t.conn.SendBatch(ctx, b)
	for i := 0; i < b.Len(); i++ {
		if _, err := br.Exec(); err != nil {
			t.rollback()
			return err
		}
	}
	t.conn.Release()
	return br.Close()
}

func (t *pgBatch) rollback() {
	if t.conn == nil {
		return
	}
	_, _ = t.conn.Exec(context.Background(), "ROLLBACK")
	t.conn.Release()
	t.conn = nil
}

// KafkaGoPublisher writes with a kafka-go Writer.
type KafkaGoPublisher struct{ w *kafka.Writer }

func (p *KafkaGoPublisher) Publish(ctx context.Context, msgs []*Message) []error {
	kms := make([]kafka.Message, len(msgs))
	for i, m := range msgs {
		kms[i] = kafka.Message{Topic: m.Topic, Value: m.Payload}
	}
	err := p.w.WriteMessages(ctx, kms...)
	errs := make([]error, len(msgs))
	for i := range errs {
		errs[i] = err
	}
	return errs
}

// New wires the relay to PostgreSQL and Kafka.
func New(pool *pgxpool.Pool, w *kafka.Writer) *Relay {
	return &Relay{store: &pgStore{pool: pool}, pub: &KafkaGoPublisher{w: w}}
}

// directRelay is the same loop without interfaces (what go vet sees whole):
// claim through a batch, publish, mark.
func directRelay(ctx context.Context, s *pgStore, p *KafkaGoPublisher) error {
	tx, msgs, err := s.claim(ctx, 0, 100)
	if err != nil {
		return err
	}
	defer tx.rollback()
	p.Publish(ctx, msgs)
	return tx.complete(ctx, nil)
}
