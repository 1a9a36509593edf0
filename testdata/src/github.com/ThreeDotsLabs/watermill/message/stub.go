package message

type Metadata map[string]string
type Message struct {
	UUID     string
	Metadata Metadata
	Payload  []byte
}

func NewMessage(uuid string, payload []byte) *Message { return &Message{UUID: uuid, Payload: payload} }

type Publisher interface {
	Publish(topic string, messages ...*Message) error
	Close() error
}
type Subscriber interface{}
type HandlerFunc func(msg *Message) ([]*Message, error)
type NoPublishHandlerFunc func(msg *Message) error
type Router struct{}
type Handler struct{}

func (r *Router) AddHandler(name, subscribeTopic string, subscriber Subscriber, publishTopic string, publisher Publisher, handlerFunc HandlerFunc) *Handler {
	return nil
}
func (r *Router) AddNoPublisherHandler(name, subscribeTopic string, subscriber Subscriber, handlerFunc NoPublishHandlerFunc) *Handler {
	return nil
}
