package txrows

import (
	"context"

	machinery "github.com/RichardKnop/machinery/v1"
	fluxamqp "github.com/absmach/fluxmq/client/amqp"
	mqtt "github.com/eclipse/paho.mqtt.golang"
	cdkpubsub "gocloud.dev/pubsub"
)

// An MQTT subscription and a machinery task registration only register
// their handlers: silent.
func negConsumeMQTTMachinery(c mqtt.Client, s *machinery.Server) {
	c.Subscribe("orders", 1, func(mqtt.Client, mqtt.Message) {})
	s.RegisterTask("order_paid", func() error { return nil })
}

// FluxMQ subscriptions register their handlers: silent.
func negConsumeFluxMQ(c *fluxamqp.Client) {
	c.Subscribe("events/#", func(string, []byte) {})
	c.SubscribeToQueue("events", "svc", func(*fluxamqp.QueueMessage) {})
}

// A Go CDK subscription's Receive pulls a message: no publish, silent.
func negConsumeGoCDK(ctx context.Context, s *cdkpubsub.Subscription) {
	if m, err := s.Receive(ctx); err == nil {
		_ = m.Body
	}
}
