// Package mqx is the service's typed producer over the library's
// interface: one generic type, instantiated once per event type.
package mqx

import (
	"context"
	"encoding/json"

	mq "github.com/ecodeclub/mq-api"
)

type GeneralProducer[T any] struct {
	producer mq.Producer
	topic    string
}

func NewGeneralProducer[T any](q mq.MQ, topic string) (*GeneralProducer[T], error) {
	p, err := q.Producer(topic)
	return &GeneralProducer[T]{producer: p, topic: topic}, err
}

func (p *GeneralProducer[T]) Produce(ctx context.Context, evt T) error {
	data, err := json.Marshal(&evt)
	if err != nil {
		return err
	}
	_, err = p.producer.Produce(ctx, &mq.Message{Value: data})
	return err
}
