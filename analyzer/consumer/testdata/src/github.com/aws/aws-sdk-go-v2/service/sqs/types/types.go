// Package types is a stub of github.com/aws/aws-sdk-go-v2/service/sqs/types for fixtures.
package types

type Message struct {
	MessageId     *string
	Body          *string
	ReceiptHandle *string
}
