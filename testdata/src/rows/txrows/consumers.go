package txrows

import (
	"context"
	"github.com/IBM/sarama"
	"time"

	"cloud.google.com/go/pubsub"
	pubsub2 "cloud.google.com/go/pubsub/v2"
	shopify "github.com/Shopify/sarama"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	ckafka "github.com/confluentinc/confluent-kafka-go/kafka"
	ckafka2 "github.com/confluentinc/confluent-kafka-go/v2/kafka"
	redis8 "github.com/go-redis/redis/v8"
	"github.com/hibiken/asynq"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/stan.go"
	amqp "github.com/rabbitmq/amqp091-go"
	streadway "github.com/streadway/amqp"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Consumers that only receive and ack: silent.
func negConsumeAck(sub *pubsub.Subscription, sub2 *pubsub2.Subscriber, sg shopify.ConsumerGroup, h shopify.ConsumerGroupHandler,
	ipc sarama.PartitionConsumer, spc shopify.PartitionConsumer, r *message.Router, q *sqs.Client, c1 *ckafka.Consumer, c2 *ckafka2.Consumer,
	mux *asynq.ServeMux, nc *nats.Conn, js nats.JetStreamContext, cons jetstream.Consumer, sc stan.Conn, ch *amqp.Channel, sch *streadway.Channel, cl *kgo.Client) {
	sub.Receive(ctx, func(ctx context.Context, m *pubsub.Message) { m.Ack() })
	sub2.Receive(ctx, func(ctx context.Context, m *pubsub2.Message) { m.Ack() })
	sg.Consume(ctx, []string{"orders"}, h)
	for range ipc.Messages() {
	}
	for range spc.Messages() {
	}
	r.AddHandler("h", "orders", nil, "out", nil, func(m *message.Message) ([]*message.Message, error) { return nil, nil })
	r.AddNoPublisherHandler("h", "orders", nil, func(m *message.Message) error { return nil })
	q.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{})
	c1.ReadMessage(100)
	c1.Poll(100)
	c2.ReadMessage(100)
	c2.Poll(100)
	mux.HandleFunc("order:paid", func(ctx context.Context, t *asynq.Task) error { return nil })
	nc.Subscribe("orders", func(m *nats.Msg) { m.Ack() })
	nc.QueueSubscribe("orders", "q", func(m *nats.Msg) { m.Ack() })
	js.Subscribe("orders", func(m *nats.Msg) { m.Ack() })
	js.QueueSubscribe("orders", "q", func(m *nats.Msg) { m.Ack() })
	cons.Consume(func(m jetstream.Msg) { m.Ack() })
	cons.Fetch(10)
	cons.Messages()
	sc.Subscribe("orders", func(m *stan.Msg) { m.Ack() })
	sc.QueueSubscribe("orders", "q", func(m *stan.Msg) { m.Ack() })
	ds, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range ds {
		d.Ack(false)
	}
	cds, _ := ch.ConsumeWithContext(ctx, "orders", "", false, false, false, false, nil)
	for d := range cds {
		d.Ack(false)
	}
	nsub, _ := nc.Subscribe("orders", nil)
	fetched, _ := nsub.Fetch(10)
	for _, m := range fetched {
		m.Ack()
	}
	if m, err := nsub.NextMsg(time.Second); err == nil {
		m.Ack()
	}
	sds, _ := sch.Consume("orders", "", false, false, false, false, nil)
	for d := range sds {
		d.Ack(false)
	}
	cl.PollFetches(ctx).EachRecord(func(*kgo.Record) {})
	cl.PollRecords(ctx, 10)
	cl.CommitUncommittedOffsets(ctx)
}

// Cache writes with go-redis v8: silent.
func negRedis8Cache(c *redis8.Client, cm redis8.Cmdable) {
	c.Set(ctx, "k", "v", time.Minute)
	c.SetEX(ctx, "k", "v", time.Minute)
	c.SetNX(ctx, "k", "v", time.Minute)
	c.HSet(ctx, "k", "f", "v")
	c.Del(ctx, "k")
	c.Expire(ctx, "k", time.Minute)
	cm.Set(ctx, "k", "v", time.Minute)
	cm.SetEX(ctx, "k", "v", time.Minute)
	cm.SetNX(ctx, "k", "v", time.Minute)
	cm.HSet(ctx, "k", "f", "v")
	cm.Del(ctx, "k")
	cm.Expire(ctx, "k", time.Minute)
	cm.Publish(ctx, "orders", "paid")
}
