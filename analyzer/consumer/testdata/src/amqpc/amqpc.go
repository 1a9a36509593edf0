package amqpc

import (
	"context"
	"database/sql"

	amqp "github.com/rabbitmq/amqp091-go"
)

func consumeBad(ch *amqp.Channel, db *sql.DB) error {
	msgs, err := ch.Consume("emails", "", false, false, false, false, nil) // want `writes to the database without the inbox`
	if err != nil {
		return err
	}
	go func() {
		for d := range msgs {
			_, _ = db.Exec("INSERT INTO sent_emails (body) VALUES ($1)", d.Body)
			_ = d.Ack(false)
		}
	}()
	return nil
}

func consumeInbox(ch *amqp.Channel, db *sql.DB) error {
	msgs, err := ch.Consume("emails", "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		tx, _ := db.Begin()
		_, _ = tx.Exec(`INSERT INTO "inbox"(consumer, message_id) VALUES ('mailer', $1) ON CONFLICT DO NOTHING`, d.MessageId)
		_, _ = tx.Exec("INSERT INTO sent_emails (body) VALUES ($1)", d.Body)
		_ = tx.Commit()
		_ = d.Ack(false)
	}
	return nil
}

// ackOnly has no DB work: silent.
func ackOnly(ch *amqp.Channel) {
	msgs, _ := ch.Consume("pings", "", false, false, false, false, nil)
	for d := range msgs {
		_ = d.Ack(false)
	}
}

// consumeWithContext: the context form is a consumer entry point too.
func consumeWithContext(ctx context.Context, ch *amqp.Channel, db *sql.DB) {
	msgs, _ := ch.ConsumeWithContext(ctx, "emails", "", false, false, false, false, nil) // want `writes to the database without the inbox`
	for d := range msgs {
		_, _ = db.Exec("INSERT INTO sent_emails (body) VALUES ($1)", d.Body)
		_ = d.Ack(false)
	}
}

// consumeInboxReturning records the message with a query (RETURNING tells
// a new message from a duplicate): guarded by the inbox, silent.
func consumeInboxReturning(ch *amqp.Channel, db *sql.DB) {
	msgs, _ := ch.Consume("emails", "", false, false, false, false, nil)
	for d := range msgs {
		tx, _ := db.Begin()
		var id string
		if tx.QueryRow(`INSERT INTO inbox (consumer, message_id) VALUES ('mailer', $1) ON CONFLICT DO NOTHING RETURNING message_id`, d.MessageId).Scan(&id) == nil {
			_, _ = tx.Exec("INSERT INTO sent_emails (body) VALUES ($1)", d.Body)
		}
		_ = tx.Commit()
		_ = d.Ack(false)
	}
}
