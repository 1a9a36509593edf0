package relaytest

import (
	"fmt"
	"strings"

	"github.com/outboxify/outboxify/templates"
)

// ModulePath is the module path of the temporary module.
const ModulePath = "example.com/relaymod"

// Brokers lists every broker the relay supports.
var Brokers = []string{"kafka-go", "franz-go", "sarama", "nats", "jetstream", "amqp091", "redis", "sns", "sqs", "pubsub", "mqtt"}

// Case is one rendered relay configuration.
type Case struct {
	DB, Broker  string
	Partitioner string // Kafka partitioner (empty: the client's default)
	Dir         string // directory of the case inside the module
}

// Ident is a Go identifier for the case (pg_jetstream).
func (c Case) Ident() string {
	db := map[string]string{"postgres": "pg", "mysql": "my"}[c.DB]
	id := db + "_" + strings.ReplaceAll(c.Broker, "-", "")
	if c.Partitioner != "" {
		id += "_" + strings.ReplaceAll(c.Partitioner, "-", "")
	}
	return id
}

// Config is the templates configuration of the case.
func (c Case) Config() templates.Config {
	return templates.Config{
		Module:      ModulePath,
		DB:          c.DB,
		Broker:      c.Broker,
		Partitioner: c.Partitioner,
		RelayDir:    c.Dir + "/outboxrelay",
		RelayCmdDir: c.Dir + "/cmd/outbox-relay",
		OpsDir:      c.Dir + "/ops",
	}
}

// AllCases returns every (database, broker) combination.
func AllCases() []Case {
	var cs []Case
	for _, db := range []string{"postgres", "mysql"} {
		for _, b := range Brokers {
			c := Case{DB: db, Broker: b}
			c.Dir = "relays/" + c.Ident()
			cs = append(cs, c)
		}
	}
	return cs
}

// RenderCases renders the relay, relaycmd and ops components of every case
// into one file map (module-relative slash paths).
func RenderCases(cases []Case) (map[string][]byte, error) {
	files := map[string][]byte{}
	for _, c := range cases {
		out, err := templates.Render(c.Config(), "relay", "relaycmd", "ops")
		if err != nil {
			return nil, fmt.Errorf("render %s: %w", c.Ident(), err)
		}
		for _, f := range out {
			files[f.Path] = f.Content
		}
	}
	return files, nil
}
