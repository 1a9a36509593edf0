package types

type AttributeValue interface{}
type AttributeValueMemberS struct{ Value string }

type Put struct {
	TableName           *string
	Item                map[string]AttributeValue
	ConditionExpression *string
}
type Update struct {
	TableName        *string
	Key              map[string]AttributeValue
	UpdateExpression *string
}
type Delete struct {
	TableName *string
	Key       map[string]AttributeValue
}
type TransactWriteItem struct {
	Put    *Put
	Update *Update
	Delete *Delete
}
