// Package keep imports every client the inbox glue is built against here, so
// go.mod keeps requiring them.
package keep

import (
	_ "cloud.google.com/go/pubsub/v2"
	_ "github.com/nats-io/nats.go/jetstream"
	_ "github.com/prometheus/client_golang/prometheus"
)
