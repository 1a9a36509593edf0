// Command shop runs the order service: HTTP API, payment-result consumer
// and outbox relay.
package main

import (
	"context"
	"database/sql"
	"log"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	"github.com/nats-io/nats.go"
	amqp "github.com/rabbitmq/amqp091-go"
	"github.com/redis/go-redis/v9"
	"github.com/segmentio/kafka-go"

	"example.com/shop/internal/consumer"
	"example.com/shop/internal/events"
	"example.com/shop/internal/httpapi"
	"example.com/shop/internal/order"
	"example.com/shop/internal/payment"
	"example.com/shop/internal/relay"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context) error {
	dsn := os.Getenv("DATABASE_URL")
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return err
	}
	defer pool.Close()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	nc, err := nats.Connect(os.Getenv("NATS_URL"))
	if err != nil {
		return err
	}
	defer nc.Close()
	conn, err := amqp.Dial(os.Getenv("AMQP_URL"))
	if err != nil {
		return err
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		return err
	}
	rdb := redis.NewClient(&redis.Options{Addr: os.Getenv("REDIS_ADDR")})
	defer rdb.Close()
	brokers := []string{os.Getenv("KAFKA_BROKER")}
	writer := &kafka.Writer{Addr: kafka.TCP(brokers...), Balancer: &kafka.Hash{}}
	defer writer.Close()
	reader := kafka.NewReader(kafka.ReaderConfig{Brokers: brokers, GroupID: "shop", Topic: "payment-results"})
	defer reader.Close()

	repo := order.NewPgRepository(pool)
	orders := order.NewService(repo, events.NewKafkaOrders(writer), pool, nc, rdb)
	payments := payment.NewService(payment.NewLedger(db), events.NewPayments(ch, "payments"))

	go func() {
		if err := consumer.NewPaymentResults(reader, repo, nc).Run(ctx); err != nil {
			log.Printf("payment results: %v", err)
		}
	}()
	go func() {
		r := relay.New(pool, writer)
		for ctx.Err() == nil {
			if n, err := r.Once(ctx, 100); err != nil {
				log.Printf("relay: %v", err)
			} else if n == 0 {
				time.Sleep(200 * time.Millisecond)
			}
		}
	}()

	srv := &http.Server{Addr: ":8080", Handler: (&httpapi.Handlers{Orders: orders, Payments: payments}).Routes()}
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	if err := srv.ListenAndServe(); err != http.ErrServerClosed {
		return err
	}
	return nil
}
