// Command uowapp places the orders named by its arguments through
// orders.Service and prints "committed <id>" for each Place that returned
// nil. UOW_DSN is the PostgreSQL URL, UOW_NATS the NATS URL, UOW_SUBJECT
// the subject the events go to.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/nats-io/nats.go"

	"example.com/uowapp/orders"
)

func main() {
	db, err := sql.Open("pgx", os.Getenv("UOW_DSN"))
	if err != nil {
		fail(err)
	}
	defer db.Close()
	nc, err := nats.Connect(os.Getenv("UOW_NATS"))
	if err != nil {
		fail(err)
	}
	svc := orders.NewService(orders.NewRepo(db), orders.NewEvents(nc, os.Getenv("UOW_SUBJECT")))
	ctx := context.Background()
	failed := 0
	for _, id := range os.Args[1:] {
		if err := svc.Place(ctx, id); err != nil {
			fmt.Fprintf(os.Stderr, "uowapp: place %s: %v\n", id, err)
			failed++
			continue
		}
		fmt.Println("committed", id)
	}
	// Core NATS buffers publishes: drain sends what is buffered before exit.
	if err := nc.Drain(); err != nil {
		fail(err)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "uowapp:", err)
	os.Exit(2)
}
