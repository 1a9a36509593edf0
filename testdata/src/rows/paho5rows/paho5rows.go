// Package paho5rows covers MQTT v5 through eclipse paho.golang: the client's
// Publish and autopaho's Publish and PublishViaQueue.
package paho5rows

import (
	"context"
	"database/sql"

	"github.com/eclipse/paho.golang/autopaho"
	"github.com/eclipse/paho.golang/paho"
)

var (
	ctx = context.Background()
	db  *sql.DB
)

func save() { db.ExecContext(ctx, "UPDATE devices SET state = 'on' WHERE id = $1") }

func msg() *paho.Publish { return &paho.Publish{Topic: "devices/1", Payload: []byte("on")} }

func posClient(c *paho.Client) {
	save()
	c.Publish(ctx, msg()) // want "OBX001"
}

func posManager(cm *autopaho.ConnectionManager) {
	save()
	cm.Publish(ctx, msg()) // want "OBX001"
}

func posQueue(cm *autopaho.ConnectionManager) {
	save()
	cm.PublishViaQueue(ctx, &autopaho.QueuePublish{Publish: msg()}) // want "OBX001"
}

func negAlone(c *paho.Client, cm *autopaho.ConnectionManager) {
	c.Publish(ctx, msg())
	cm.Publish(ctx, msg())
	cm.PublishViaQueue(ctx, &autopaho.QueuePublish{Publish: msg()})
}
