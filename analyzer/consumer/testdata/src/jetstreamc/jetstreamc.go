package jetstreamc

import (
	"github.com/nats-io/nats.go/jetstream"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

type Shipment struct{ OrderID string }

func consumeBad(c jetstream.Consumer, db *gorm.DB) {
	_, _ = c.Consume(func(msg jetstream.Msg) { // want `writes to the database without the inbox`
		db.Create(&Shipment{OrderID: string(msg.Data())})
		_ = msg.Ack()
	})
}

func consumeGood(c jetstream.Consumer, db *gorm.DB) {
	_, _ = c.Consume(func(msg jetstream.Msg) {
		db.Clauses(clause.OnConflict{DoNothing: true}).Create(&Shipment{OrderID: string(msg.Data())})
		_ = msg.Ack()
	})
}

func fetchBad(c jetstream.Consumer, db *gorm.DB) {
	batch, _ := c.Fetch(10) // want `writes to the database without the inbox`
	for msg := range batch.Messages() {
		db.Save(&Shipment{OrderID: string(msg.Data())})
		_ = msg.Ack()
	}
}
