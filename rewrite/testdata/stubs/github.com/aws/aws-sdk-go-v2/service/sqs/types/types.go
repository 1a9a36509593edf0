// Package types is a stub of github.com/aws/aws-sdk-go-v2/service/sqs/types for rewrite tests.
package types

type MessageAttributeValue struct {
	DataType    *string
	StringValue *string
}
