// Package azeventhubs stubs the Azure Event Hubs client's ProducerClient:
// the call the catalog names, with its real signature.
package azeventhubs

import "context"

type EventDataBatch struct{}
type SendEventDataBatchOptions struct{}

type ProducerClient struct{}

func (pc *ProducerClient) SendEventDataBatch(ctx context.Context, batch *EventDataBatch, options *SendEventDataBatchOptions) error {
	return nil
}
