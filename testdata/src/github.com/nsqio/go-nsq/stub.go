// Package nsq stubs the NSQ client's Producer: the calls the catalog names,
// with their real signatures.
package nsq

import "time"

type ProducerTransaction struct{ Error error }

type Producer struct{}

func (w *Producer) Publish(topic string, body []byte) error { return nil }
func (w *Producer) PublishAsync(topic string, body []byte, doneChan chan *ProducerTransaction, args ...interface{}) error {
	return nil
}
func (w *Producer) MultiPublish(topic string, body [][]byte) error { return nil }
func (w *Producer) MultiPublishAsync(topic string, body [][]byte, doneChan chan *ProducerTransaction, args ...interface{}) error {
	return nil
}
func (w *Producer) DeferredPublish(topic string, delay time.Duration, body []byte) error { return nil }
func (w *Producer) DeferredPublishAsync(topic string, delay time.Duration, body []byte, doneChan chan *ProducerTransaction, args ...interface{}) error {
	return nil
}
