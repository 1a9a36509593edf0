// Package ginaudit has the gin middlewares real products publish from
// after c.Next() runs the route's handler: an activity log installed on
// the engine (every route of the program) and a change notifier installed
// on two groups with Group(path, mw) (their routes only, some registered in
// a function the group is passed to). A middleware around routes that
// only read publishes after no write (CLI: the routes are found
// program-wide).
package ginaudit

import (
	"database/sql"

	"github.com/gin-gonic/gin"
	"github.com/nats-io/nats.go"
)

var (
	db *sql.DB
	nc *nats.Conn
)

// ActivityLog publishes every request after its handler ran.
func ActivityLog() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Next()
		nc.Publish("activity", nil)
	}
}

// Notify publishes a change notification after the handler ran.
func Notify() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Next()
		nc.Publish("policy.changed", nil)
	}
}

// Timing publishes a metric after handlers that only read.
func Timing() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Next()
		nc.Publish("timing", nil)
	}
}

// Policies is the controller.
type Policies struct{}

func (p *Policies) Create(c *gin.Context) { db.Exec("INSERT INTO policies (name) VALUES ($1)", "p") }
func (p *Policies) List(c *gin.Context)   { db.Query("SELECT name FROM policies") }

func version(c *gin.Context) {}

// Router installs the middlewares and registers the routes: no run.
func Router() *gin.Engine {
	r := gin.New()
	r.Use(ActivityLog())
	v1 := r.Group("/v1")
	p := &Policies{}
	policies := v1.Group("/policies", Notify())
	policies.GET("", p.List)
	secrets := v1.Group("/secrets", Notify())
	registerSecrets(secrets, p)
	reads := v1.Group("/reads", Timing())
	reads.GET("/policies", p.List)
	reads.GET("/version", version)
	return r
}

func registerSecrets(g *gin.RouterGroup, p *Policies) {
	g.POST("", p.Create)
}
