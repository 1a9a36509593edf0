// Package suppress exercises //outboxify:ignore.
package suppress

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"
)

var (
	ctx = context.Background()
	db  *sql.DB
	w   *kafka.Writer
)

func save() { db.ExecContext(ctx, "UPDATE orders SET status = 'paid' WHERE id = $1") }

func OnTheLine() {
	save()
	w.WriteMessages(ctx, kafka.Message{}) //outboxify:ignore OBX001 consumers re-read the order; a lost event is repaired nightly
}

func LineAbove() {
	save()
	//outboxify:ignore the audit topic is best effort
	w.WriteMessages(ctx, kafka.Message{})
}

// OnTheFunction is suppressed as a whole.
//
//outboxify:ignore OBX001 legacy path owned by the payments team, replaced in Q3
func OnTheFunction() {
	save()
	w.WriteMessages(ctx, kafka.Message{})
	w.WriteMessages(ctx, kafka.Message{Topic: "audit"})
}

func OtherRule() {
	save()
	//outboxify:ignore OBX004 wrong rule named // want `OBX900 //outboxify:ignore OBX004 matches no finding`
	w.WriteMessages(ctx, kafka.Message{}) // want `OBX001`
}

func NoReason() {
	save()
	w.WriteMessages(ctx, kafka.Message{}) //outboxify:ignore // want `OBX001` `OBX900 //outboxify:ignore needs a reason`
}

func Unused() {
	//outboxify:ignore nothing to suppress here // want `OBX900 //outboxify:ignore matches no finding`
	w.WriteMessages(ctx, kafka.Message{})
}
