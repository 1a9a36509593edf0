package txshapes

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddb "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/sns"
)

// DynamoDB: the outbox pattern is an outbox item in the same TransactWriteItems.
type DynamoService struct {
	ddb         *dynamodb.Client
	sns         *sns.Client
	outboxTable string
}

// The order and its outbox item in one TransactWriteItems: the write is
// covered, the notification after it is not a dual write.
func (s *DynamoService) PlaceInline(ctx context.Context, id string) error {
	_, err := s.ddb.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []ddb.TransactWriteItem{
		{Put: &ddb.Put{TableName: aws.String("orders"), Item: map[string]ddb.AttributeValue{"id": &ddb.AttributeValueMemberS{Value: id}}}},
		{Put: &ddb.Put{TableName: aws.String("orders_outbox"), Item: map[string]ddb.AttributeValue{"aggregate_id": &ddb.AttributeValueMemberS{Value: id}}}},
	}})
	if err != nil {
		return err
	}
	_, err = s.sns.Publish(ctx, &sns.PublishInput{TopicArn: aws.String("arn:notify"), Message: aws.String(id)})
	return err
}

// The items are built first, the outbox table named by a field.
func (s *DynamoService) PlaceBuilt(ctx context.Context, id string) error {
	items := []ddb.TransactWriteItem{
		{Update: &ddb.Update{TableName: aws.String("orders"), UpdateExpression: aws.String("SET #s = :paid")}},
		{Put: &ddb.Put{TableName: &s.outboxTable}},
	}
	if _, err := s.ddb.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items}); err != nil {
		return err
	}
	_, err := s.sns.Publish(ctx, &sns.PublishInput{TopicArn: aws.String("arn:notify"), Message: aws.String(id)})
	return err
}

// save writes the order with its outbox item; callers see a covered write.
func (s *DynamoService) save(ctx context.Context, id string) error {
	_, err := s.ddb.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []ddb.TransactWriteItem{
		{Put: &ddb.Put{TableName: aws.String("orders")}},
		{Put: &ddb.Put{TableName: aws.String("outbox")}},
	}})
	return err
}

func (s *DynamoService) PlaceViaSave(ctx context.Context, id string) error {
	if err := s.save(ctx, id); err != nil {
		return err
	}
	_, err := s.sns.Publish(ctx, &sns.PublishInput{TopicArn: aws.String("arn:notify"), Message: aws.String(id)})
	return err
}

// Without an outbox item the transaction is only the store write: OBX001.
func (s *DynamoService) PlaceNoOutbox(ctx context.Context, id string) error {
	_, err := s.ddb.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []ddb.TransactWriteItem{
		{Put: &ddb.Put{TableName: aws.String("orders")}},
		{Update: &ddb.Update{TableName: aws.String("outbox_counters")}}, // an update is not an outbox item
	}})
	if err != nil {
		return err
	}
	_, err = s.sns.Publish(ctx, &sns.PublishInput{TopicArn: aws.String("arn:notify"), Message: aws.String(id)}) // want `OBX001.*TransactWriteItems`
	return err
}
