package generate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/internal/testmod"
	"github.com/outboxify/outboxify/templates"
)

// combo is one rendering of the templates into its own subtree of a shared
// module, so every driver and broker compiles in one go build.
type combo struct{ db, driver, broker, relay string }

// compileCombos covers every driver on both databases and every broker,
// in both relay modes, without the full cross product (which only repeats
// the same files).
func compileCombos() []combo {
	var out []combo
	for _, db := range []string{"postgres", "mysql"} {
		for _, driver := range []string{"database/sql", "pgx", "sqlx", "gorm"} {
			if db == "mysql" && driver == "pgx" {
				continue
			}
			out = append(out, combo{db, driver, "nats", "polling"})
			out = append(out, combo{db, driver, "kafka-go", "debezium"})
		}
	}
	drivers := []string{"database/sql", "pgx", "sqlx", "gorm"}
	for i, broker := range []string{"kafka-go", "franz-go", "sarama", "nats", "jetstream", "amqp091", "redis", "sns", "sqs", "pubsub"} {
		db := []string{"postgres", "mysql"}[i%2]
		driver := drivers[i%len(drivers)]
		if db == "mysql" && driver == "pgx" {
			driver = "database/sql"
		}
		out = append(out, combo{db, driver, broker, "polling"})
	}
	return out
}

func (c combo) dir() string {
	r := strings.NewReplacer("/", "", "-", "")
	return fmt.Sprintf("c_%s_%s_%s_%s", c.db, r.Replace(c.driver), r.Replace(c.broker), c.relay)
}

// TestGeneratedGoCompiles renders every combination into one temporary module
// and runs one go build and one go vet over it.
func TestGeneratedGoCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	t.Parallel()
	const mod = "example.com/gen"
	files := map[string][]byte{}
	for _, c := range compileCombos() {
		cfg := templates.Config{Module: mod + "/" + c.dir(), DB: c.db, Driver: c.driver, Broker: c.broker, Relay: c.relay}
		rendered, err := templates.Render(cfg, componentsUnderTest...)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		for _, f := range rendered {
			if strings.HasSuffix(f.Path, ".go") {
				files[c.dir()+"/"+f.Path] = f.Content
			}
		}
	}
	dir := testmod.New(t, mod, files)
	testmod.Go(t, dir, "build", "./...")
	testmod.Go(t, dir, "vet", "./...")
}
