package generate

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/outboxify/outboxify/templates"
)

// Flags are the generation flags shared by `outboxify generate` and
// `outboxify fix`, so both accept the same spelling and values.
type Flags struct {
	DB, Driver, Broker, Migrations, Relay, Notify string
	Partitioner                                   string
	Out                                           string
}

// Register adds the flags to fs.
func (f *Flags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&f.DB, "db", "", "database: "+strings.Join(DBs, "|")+" (default: detected from go.mod)")
	fs.StringVar(&f.Driver, "driver", "", "database driver: "+strings.Join(Drivers, "|")+" (default: detected)")
	fs.StringVar(&f.Broker, "broker", "", "broker client: "+strings.Join(Brokers, "|")+" (default: detected)")
	fs.StringVar(&f.Migrations, "migrations", "auto", "migration format: "+strings.Join(Migrations, "|"))
	fs.StringVar(&f.Relay, "relay", "", "relay: "+strings.Join(Relays, "|")+" (default polling)")
	fs.StringVar(&f.Notify, "notify", "", "PostgreSQL NOTIFY trigger waking the relay: "+strings.Join(Notifies, "|")+" (default trigger)")
	fs.StringVar(&f.Partitioner, "partitioner", "", "Kafka key partitioner of the relay: "+strings.Join(templates.KafkaPartitioners, "|")+
		" (default: detected from the module's producers, so each key keeps its partition)")
	fs.StringVar(&f.Out, "out", "", "directory inside the module under which files are generated (default: the module root)")
}

// Config returns the flags as a Config holding only what the user set, for
// Override.
func (f *Flags) Config() templates.Config {
	return templates.Config{DB: f.DB, Driver: f.Driver, Broker: f.Broker, Migrations: f.Migrations,
		Relay: f.Relay, Notify: f.Notify, Partitioner: f.Partitioner}
}

// Validate checks the flag values before anything is detected or written.
func (f *Flags) Validate() error { return Validate(f.Config()) }
