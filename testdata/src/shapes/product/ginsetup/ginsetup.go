// Package ginsetup has a CI server's start-up: a signing key is written,
// then the routes are registered on gin, some with handlers (function
// values) that write and enqueue a build. Registering with a router whose
// catalog rows say what it does is not running: the server function gets
// no finding; CreateBuild gets its own.
package ginsetup

import (
	"context"
	"database/sql"

	"github.com/gin-gonic/gin"
	"github.com/segmentio/kafka-go"
)

var (
	db *sql.DB
	w  *kafka.Writer
)

func CreateBuild(c *gin.Context) {
	db.ExecContext(context.Background(), "INSERT INTO builds (id) VALUES ($1)", 1)
	w.WriteMessages(context.Background(), kafka.Message{Topic: "builds"}) // want "OBX001"
}

func mustRead(c *gin.Context) {}

func Load(e *gin.Engine) {
	builds := e.Group("/builds", mustRead, CreateBuild)
	builds.POST("", CreateBuild)
}

func Server(ctx context.Context, e *gin.Engine) error {
	if _, err := db.ExecContext(ctx, "INSERT INTO jwks (kid) VALUES ($1)", "k1"); err != nil {
		return err
	}
	Load(e)
	return nil
}
