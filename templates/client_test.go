package templates_test

import (
	"strings"
	"testing"

	"github.com/outboxify/outboxify/templates"
)

// A client module the glue is not written for is an error, not glue that
// imports the wrong package.
func TestClientModuleUnknown(t *testing.T) {
	cfg := templates.Config{Module: "example.com/svc", Broker: "redis", BrokerModule: "github.com/gomodule/redigo"}
	_, err := templates.Render(cfg, "inbox")
	if err == nil || !strings.Contains(err.Error(), "github.com/gomodule/redigo") {
		t.Fatalf("Render with an unknown client module: err = %v, want one naming it", err)
	}
}

// InboxCoreOnly renders the inbox core and no consumer glue.
func TestInboxCoreOnly(t *testing.T) {
	cfg := templates.Config{Module: "example.com/svc", Broker: "kafka-go", InboxCoreOnly: true}
	files, err := templates.Render(cfg, "inbox")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Path)
	}
	if len(names) != 1 || names[0] != "internal/inbox/inbox.go" {
		t.Fatalf("InboxCoreOnly rendered %v, want only internal/inbox/inbox.go", names)
	}
}
