// Package keep imports every client the inbox glue is built against here, so
// go.mod keeps requiring them.
package keep

import (
	_ "github.com/IBM/sarama"
	_ "github.com/Shopify/sarama"
	_ "github.com/aws/aws-sdk-go-v2/service/sqs"
	_ "github.com/go-redis/redis/v8"
	_ "github.com/nats-io/nats.go"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/rabbitmq/amqp091-go"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/segmentio/kafka-go"
	_ "github.com/streadway/amqp"
	_ "github.com/twmb/franz-go/pkg/kgo"
)
