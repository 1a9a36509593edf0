//go:build relaydeps

package relaytest

// The generated relays and their tests import these; the temporary module
// takes its requirements from outboxify's go.mod, so they must stay there
// (go mod tidy sees this file; builds never compile it).
import (
	_ "cloud.google.com/go/pubsub/v2"
	_ "cloud.google.com/go/pubsub/v2/pstest"
	_ "github.com/Admiral-Piett/goaws/app/servertest"
	_ "github.com/IBM/sarama"
	_ "github.com/aws/aws-sdk-go-v2/config"
	_ "github.com/aws/aws-sdk-go-v2/service/sns"
	_ "github.com/aws/aws-sdk-go-v2/service/sqs"
	_ "github.com/confluentinc/confluent-kafka-go/v2/kafka"
	_ "github.com/eclipse/paho.mqtt.golang"
	_ "github.com/nats-io/nats.go"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/rabbitmq/amqp091-go"
	_ "github.com/redis/go-redis/v9"
	_ "github.com/segmentio/kafka-go"
	_ "github.com/twmb/franz-go/pkg/kfake"
	_ "github.com/twmb/franz-go/pkg/kgo"
	_ "github.com/xdg-go/scram"
)
