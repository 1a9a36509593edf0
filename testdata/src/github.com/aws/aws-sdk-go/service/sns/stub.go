// Package sns stubs the AWS SDK for Go v1 SNS client: the calls the catalog
// names, with their real signatures (aws.Context is context.Context).
package sns

import "context"

type SNS struct{}

type MessageAttributeValue struct {
	DataType    *string
	StringValue *string
}

type PublishInput struct {
	TopicArn          *string
	TargetArn         *string
	PhoneNumber       *string
	Message           *string
	MessageGroupId    *string
	MessageAttributes map[string]*MessageAttributeValue
}
type PublishOutput struct{ MessageId *string }

func (c *SNS) Publish(in *PublishInput) (*PublishOutput, error) { return nil, nil }
func (c *SNS) PublishWithContext(ctx context.Context, in *PublishInput, opts ...any) (*PublishOutput, error) {
	return nil, nil
}

type PublishBatchRequestEntry struct {
	Id                *string
	Message           *string
	MessageGroupId    *string
	MessageAttributes map[string]*MessageAttributeValue
}

type PublishBatchInput struct {
	TopicArn                   *string
	PublishBatchRequestEntries []*PublishBatchRequestEntry
}
type PublishBatchOutput struct{}

func (c *SNS) PublishBatch(in *PublishBatchInput) (*PublishBatchOutput, error) { return nil, nil }
func (c *SNS) PublishBatchWithContext(ctx context.Context, in *PublishBatchInput, opts ...any) (*PublishBatchOutput, error) {
	return nil, nil
}

func (s *PublishInput) SetMessage(v string) *PublishInput     { s.Message = &v; return s }
func (s *PublishInput) SetPhoneNumber(v string) *PublishInput { s.PhoneNumber = &v; return s }
func (s *PublishInput) SetTopicArn(v string) *PublishInput    { s.TopicArn = &v; return s }
