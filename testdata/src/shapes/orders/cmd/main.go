// Command cmd wires the implementations to the ports.
package main

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"

	"shapes/orders/app"
	"shapes/orders/bus"
	"shapes/orders/domain"
	"shapes/orders/repo"
)

func main() {
	db, _ := sql.Open("postgres", "")
	r := repo.NewPostgresRepo(db)
	p := bus.NewProducer(&kafka.Writer{Topic: "orders"})
	h := app.NewHandler(r, p)
	_ = h.Handle(context.Background(), domain.Order{ID: "1"})
	_ = app.NewService(r, bus.NewEventBus(p), p)
}
