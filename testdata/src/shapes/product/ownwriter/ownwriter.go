// Package ownwriter: the service declares its own interface over sarama's
// async producer (Input() chan<- *sarama.ProducerMessage), which the client
// implements; the send through it is the client's publish (shaped like a
// Red Hat Insights digest writer).
package ownwriter

import (
	"context"
	"database/sql"
	"errors"

	"github.com/IBM/sarama"
)

type Writer interface {
	Input() chan<- *sarama.ProducerMessage
	Errors() <-chan *sarama.ProducerError
}

type KafkaProducer struct {
	Topic  string
	Writer Writer
}

func (p *KafkaProducer) SendMessage(key, value sarama.Encoder) error {
	msg := &sarama.ProducerMessage{Topic: p.Topic, Key: key, Value: value}
	select {
	case p.Writer.Input() <- msg:
		return nil
	case err := <-p.Writer.Errors():
		return err
	}
}

type Consumer struct {
	db       *sql.DB
	producer *KafkaProducer
}

func (c *Consumer) track(status string) {
	c.producer.SendMessage(nil, sarama.StringEncoder(status))
}

func (c *Consumer) Process(ctx context.Context, cluster string) error {
	if _, err := c.db.ExecContext(ctx, "INSERT INTO clusters (name) VALUES ($1)", cluster); err != nil {
		return err
	}
	go c.track("success") // want "OBX005"
	return nil
}

// only a publish: nothing to pair
func (c *Consumer) Received() {
	go c.track("received")
}

// a channel of the service's own values is no broker
func (c *Consumer) Local(ctx context.Context, done chan<- string) error {
	if _, err := c.db.ExecContext(ctx, "UPDATE clusters SET seen = now()"); err != nil {
		return errors.New("update")
	}
	done <- "seen"
	return nil
}
