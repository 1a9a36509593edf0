package sqsc

import (
	"context"
	"database/sql"

	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

func pollBad(ctx context.Context, c *sqs.Client, db *sql.DB) error {
	out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{}) // want `writes to the database without the inbox`
	if err != nil {
		return err
	}
	for _, m := range out.Messages {
		tx, _ := db.BeginTx(ctx, nil)
		_, _ = tx.ExecContext(ctx, "INSERT INTO payments (body) VALUES ($1)", *m.Body)
		_ = tx.Commit()
	}
	return nil
}

func pollGood(ctx context.Context, c *sqs.Client, db *sql.DB) error {
	out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{})
	if err != nil {
		return err
	}
	for _, m := range out.Messages {
		tx, _ := db.BeginTx(ctx, nil)
		_, _ = tx.ExecContext(ctx, "INSERT INTO inbox (consumer, message_id) VALUES ('payments', $1) ON CONFLICT DO NOTHING", *m.MessageId)
		_, _ = tx.ExecContext(ctx, "INSERT INTO payments (body) VALUES ($1)", *m.Body)
		_ = tx.Commit()
	}
	return nil
}
