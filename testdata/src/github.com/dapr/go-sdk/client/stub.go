package client

import "context"

type PublishEventOption func()
type PublishEventsOption func()
type PublishEventsResponse struct{}
type StateOption func()
type SetStateItem struct {
	Key   string
	Value []byte
}
type ETag struct{ Value string }
type StateOptions struct{}
type StateOperation struct{}

// Client is the SDK's interface; NewClient returns a *GRPCClient.
type Client interface {
	PublishEvent(ctx context.Context, pubsubName, topicName string, data interface{}, opts ...PublishEventOption) error
	PublishEventfromCustomContent(ctx context.Context, pubsubName, topicName string, data interface{}) error
	PublishEvents(ctx context.Context, pubsubName, topicName string, events []interface{}, opts ...PublishEventsOption) PublishEventsResponse
	SaveState(ctx context.Context, storeName, key string, data []byte, meta map[string]string, so ...StateOption) error
	SaveStateWithETag(ctx context.Context, storeName, key string, data []byte, etag string, meta map[string]string, so ...StateOption) error
	SaveBulkState(ctx context.Context, storeName string, items ...*SetStateItem) error
	DeleteState(ctx context.Context, storeName, key string, meta map[string]string) error
	DeleteStateWithETag(ctx context.Context, storeName, key string, etag *ETag, meta map[string]string, opts *StateOptions) error
	DeleteBulkState(ctx context.Context, storeName string, keys []string, meta map[string]string) error
	ExecuteStateTransaction(ctx context.Context, storeName string, meta map[string]string, ops []*StateOperation) error
}

type GRPCClient struct{}

func NewClient() (Client, error) { return &GRPCClient{}, nil }

func (c *GRPCClient) PublishEvent(ctx context.Context, pubsubName, topicName string, data interface{}, opts ...PublishEventOption) error {
	return nil
}
func (c *GRPCClient) PublishEventfromCustomContent(ctx context.Context, pubsubName, topicName string, data interface{}) error {
	return nil
}
func (c *GRPCClient) PublishEvents(ctx context.Context, pubsubName, topicName string, events []interface{}, opts ...PublishEventsOption) PublishEventsResponse {
	return PublishEventsResponse{}
}
func (c *GRPCClient) SaveState(ctx context.Context, storeName, key string, data []byte, meta map[string]string, so ...StateOption) error {
	return nil
}
func (c *GRPCClient) SaveStateWithETag(ctx context.Context, storeName, key string, data []byte, etag string, meta map[string]string, so ...StateOption) error {
	return nil
}
func (c *GRPCClient) SaveBulkState(ctx context.Context, storeName string, items ...*SetStateItem) error {
	return nil
}
func (c *GRPCClient) DeleteState(ctx context.Context, storeName, key string, meta map[string]string) error {
	return nil
}
func (c *GRPCClient) DeleteStateWithETag(ctx context.Context, storeName, key string, etag *ETag, meta map[string]string, opts *StateOptions) error {
	return nil
}
func (c *GRPCClient) DeleteBulkState(ctx context.Context, storeName string, keys []string, meta map[string]string) error {
	return nil
}
func (c *GRPCClient) ExecuteStateTransaction(ctx context.Context, storeName string, meta map[string]string, ops []*StateOperation) error {
	return nil
}
