package generate

import (
	"fmt"
	"strings"
	"time"

	"github.com/outboxify/outboxify/templates"
)

// Options tune a Plan beyond the template settings.
type Options struct {
	// Out is the directory (absolute, or relative to the module root) under
	// which every generated file goes; it must lie inside the module.
	// Empty means the module root.
	Out string
	// Now gives the time for timestamp-style migration versions; nil means
	// time.Now. Tests fix it for reproducible output.
	Now func() time.Time
	// Components restricts rendering to the named template components
	// (e.g. "outbox" for fix's minimum); none means all.
	Components []string
}

// Allowed values of the settings a user can choose.
var (
	DBs        = []string{"postgres", "mysql"}
	Drivers    = []string{"database/sql", "pgx", "pgx4", "sqlx", "gorm"}
	Brokers    = []string{"kafka-go", "franz-go", "sarama", "nats", "jetstream", "amqp091", "redis", "sns", "sqs", "pubsub", "mqtt"}
	Migrations = []string{"auto", "sql", "goose", "migrate", "atlas"}
	Relays     = []string{"polling", "debezium"}
	Notifies   = []string{"trigger", "off"}
)

// Validate reports the first setting of c outside its allowed values, and
// combinations that cannot be generated.
func Validate(c templates.Config) error {
	for _, s := range []struct {
		flag, value string
		allowed     []string
	}{
		{"db", c.DB, DBs}, {"driver", c.Driver, Drivers}, {"broker", c.Broker, Brokers},
		{"migrations", c.Migrations, Migrations}, {"relay", c.Relay, Relays}, {"notify", c.Notify, Notifies},
		{"partitioner", c.Partitioner, templates.KafkaPartitioners},
	} {
		if s.value == "" {
			continue
		}
		if !contains(s.allowed, s.value) {
			return fmt.Errorf("unknown --%s value %q (want one of %s)", s.flag, s.value, strings.Join(s.allowed, ", "))
		}
	}
	if (c.Driver == "pgx" || c.Driver == "pgx4") && c.DB == "mysql" {
		return fmt.Errorf("--driver %s needs --db postgres (pgx is a PostgreSQL driver)", c.Driver)
	}
	return nil
}

// Override returns detected with every non-empty field of flags copied over
// it: a flag always wins over detection.
func Override(detected, flags templates.Config) templates.Config {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	c := detected
	set(&c.Module, flags.Module)
	set(&c.DB, flags.DB)
	set(&c.Driver, flags.Driver)
	set(&c.Broker, flags.Broker)
	if flags.Migrations != "auto" {
		set(&c.Migrations, flags.Migrations)
	}
	set(&c.Relay, flags.Relay)
	set(&c.Notify, flags.Notify)
	if flags.Partitioner != "" {
		c.Partitioner, c.PartitionerSource = flags.Partitioner, "--partitioner "+flags.Partitioner
	}
	set(&c.Table, flags.Table)
	set(&c.InboxTable, flags.InboxTable)
	set(&c.Channel, flags.Channel)
	set(&c.OutboxDir, flags.OutboxDir)
	set(&c.InboxDir, flags.InboxDir)
	set(&c.RelayDir, flags.RelayDir)
	set(&c.RelayCmdDir, flags.RelayCmdDir)
	set(&c.MigrationsDir, flags.MigrationsDir)
	set(&c.OpsDir, flags.OpsDir)
	set(&c.MigrationVersion, flags.MigrationVersion)
	return c
}

func contains(set []string, v string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}
