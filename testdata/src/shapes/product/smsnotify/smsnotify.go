// Package smsnotify sends a text message through SNS after recording the
// send (NpoolPlatform/kunman's notification steps): an SNS publish to a
// phone number reaches a phone, not a topic consumers read, so it is no
// broker publish. The same record followed by a topic publish is.
package smsnotify

import (
	"context"
	"database/sql"

	"github.com/aws/aws-sdk-go-v2/service/sns"
	snsv1 "github.com/aws/aws-sdk-go/service/sns"
)

type Notifier struct {
	db  *sql.DB
	v1  *snsv1.SNS
	sns *sns.Client
}

func (n *Notifier) record(ctx context.Context, id string) {
	n.db.ExecContext(ctx, "UPDATE notifs SET notified = true WHERE id = $1", id)
}

// SendSMS sets the phone number on the input, as the v1 SDK's setters do.
func (n *Notifier) SendSMS(ctx context.Context, id, to, msg string) error {
	n.record(ctx, id)
	in := &snsv1.PublishInput{}
	in.SetMessage(msg)
	in.SetPhoneNumber(to)
	_, err := n.v1.Publish(in)
	return err
}

// SendSMSv2 names the phone number in the literal.
func (n *Notifier) SendSMSv2(ctx context.Context, id, to, msg string) error {
	n.record(ctx, id)
	_, err := n.sns.Publish(ctx, &sns.PublishInput{PhoneNumber: &to, Message: &msg})
	return err
}

// SendSMSVar builds the input first, in a variable.
func (n *Notifier) SendSMSVar(ctx context.Context, id, to, msg string) error {
	n.record(ctx, id)
	in := &sns.PublishInput{PhoneNumber: &to, Message: &msg}
	_, err := n.sns.Publish(ctx, in)
	return err
}

// Announce publishes to the topic after the write: a dual write.
func (n *Notifier) Announce(ctx context.Context, id, topic, msg string) error {
	n.record(ctx, id)
	in := &snsv1.PublishInput{}
	in.SetMessage(msg)
	in.SetTopicArn(topic)
	_, err := n.v1.Publish(in) // want `OBX001`
	return err
}
