// Package realclients imports every catalogued library (clients, and the
// routers and schedulers of the Later rows) that is not in outboxify's own
// build list (see TestRowsMatchRealClients).
package realclients

import (
	_ "cloud.google.com/go/firestore"
	_ "cloud.google.com/go/pubsub"
	_ "entgo.io/ent/dialect/sql/sqlgraph"
	_ "github.com/RichardKnop/machinery/v1"
	_ "github.com/Shopify/sarama"
	_ "github.com/ThreeDotsLabs/watermill/components/cqrs"
	_ "github.com/ThreeDotsLabs/watermill/message"
	_ "github.com/absmach/fluxmq/client/amqp"
	_ "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	_ "github.com/aws/aws-sdk-go-v2/service/eventbridge"
	_ "github.com/aws/aws-sdk-go-v2/service/kinesis"
	_ "github.com/confluentinc/confluent-kafka-go/kafka"
	_ "github.com/eclipse/paho.mqtt.golang"
	_ "github.com/gin-gonic/gin"
	_ "github.com/go-chi/chi"
	_ "github.com/go-chi/chi/v5"
	_ "github.com/go-co-op/gocron"
	_ "github.com/go-co-op/gocron/v2"
	_ "github.com/go-redis/redis/v8"
	_ "github.com/gocql/gocql"
	_ "github.com/gofiber/fiber/v2"
	_ "github.com/hibiken/asynq"
	_ "github.com/jackc/pgx/v4"
	_ "github.com/jackc/pgx/v4/pgxpool"
	_ "github.com/labstack/echo/v4"
	_ "github.com/nats-io/stan.go"
	_ "github.com/robfig/cron"
	_ "github.com/streadway/amqp"
	_ "github.com/uptrace/bun"
	_ "go.mongodb.org/mongo-driver/mongo"
	_ "go.mongodb.org/mongo-driver/v2/mongo"
	_ "gocloud.dev/pubsub"
)
