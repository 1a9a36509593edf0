package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The module the test vets: a stubbed Kafka client at its real import path
// (through a replace), a repository, a producer wrapper, a handler calling
// both, one call through an interface, and a configured event bus.
var module = map[string]string{
	"go.mod": `module example.com/svc

go 1.22

require github.com/segmentio/kafka-go v0.0.0

replace github.com/segmentio/kafka-go => ./third_party/kafka-go
`,
	"third_party/kafka-go/go.mod": "module github.com/segmentio/kafka-go\n\ngo 1.22\n",
	"third_party/kafka-go/kafka.go": `package kafka

import "context"

type Message struct{ Topic string; Value []byte }
type Writer struct{}

func (w *Writer) WriteMessages(ctx context.Context, msgs ...Message) error { return nil }

type Reader struct{}

func (r *Reader) FetchMessage(ctx context.Context) (Message, error) { return Message{}, nil }
func (r *Reader) CommitMessages(ctx context.Context, msgs ...Message) error { return nil }
`,
	".outboxify.yaml": "publishers: [\"(*example.com/svc/bus.Bus).Emit\"]\n",
	"repo/repo.go": `package repo

import (
	"context"
	"database/sql"
)

type Repo struct{ DB *sql.DB }

func (r *Repo) Save(ctx context.Context, id string) error {
	_, err := r.DB.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id)
	return err
}
`,
	"producer/producer.go": `package producer

import (
	"context"

	"github.com/segmentio/kafka-go"
)

type Producer struct{ W *kafka.Writer }

func (p *Producer) Send(ctx context.Context, v []byte) error {
	return p.W.WriteMessages(ctx, kafka.Message{Topic: "orders", Value: v})
}
`,
	"worker/worker.go": `package worker

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"
)

// Consume applies each message without the inbox: OBX101.
func Consume(ctx context.Context, r *kafka.Reader, db *sql.DB) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO shipments (body) VALUES ($1)", m.Value); err != nil {
			return err
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}
`,
	"bus/bus.go": `package bus

import "context"

type Bus struct{}

func (b *Bus) Emit(ctx context.Context, v any) error { return nil }
`,
	"handler/handler.go": `package handler

import (
	"context"

	"example.com/svc/bus"
	"example.com/svc/producer"
	"example.com/svc/repo"
)

type Sender interface{ Send(ctx context.Context, v []byte) error }

type Handler struct {
	Repo  *repo.Repo
	Prod  *producer.Producer
	Iface Sender
	Bus   *bus.Bus
}

func (h *Handler) Place(ctx context.Context, id string) error {
	if err := h.Repo.Save(ctx, id); err != nil {
		return err
	}
	return h.Prod.Send(ctx, []byte(id))
}

func (h *Handler) PlaceIface(ctx context.Context, id string) error {
	if err := h.Repo.Save(ctx, id); err != nil {
		return err
	}
	return h.Iface.Send(ctx, []byte(id))
}

func (h *Handler) PlaceBus(ctx context.Context, id string) error {
	if err := h.Repo.Save(ctx, id); err != nil {
		return err
	}
	return h.Bus.Emit(ctx, id)
}
`,
}

func TestGoVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the vet tool and runs go vet")
	}
	tmp := t.TempDir()
	tool := filepath.Join(tmp, "outboxify-vet")
	build := exec.Command("go", "build", "-o", tool, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod := filepath.Join(tmp, "svc")
	for name, content := range module {
		p := filepath.Join(mod, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vet := exec.Command("go", "vet", "-vettool="+tool, "./...")
	vet.Dir = mod
	vet.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := vet.CombinedOutput()
	text := string(out)
	if err == nil {
		t.Fatalf("go vet succeeded; want findings\n%s", text)
	}
	for _, want := range []string{
		"handler/handler.go:24:9: OBX001 publish (*kafka.Writer).WriteMessages (via (*producer.Producer).Send) after the autocommitted DB write (*sql.DB).ExecContext (via (*repo.Repo).Save)",
		"handler/handler.go:38:9: OBX001 publish (*bus.Bus).Emit", // configured in .outboxify.yaml
		"worker/worker.go:13:13: OBX101 consumer handler",         // the consumer analyzer runs too
	} {
		if !strings.Contains(text, want) {
			t.Errorf("go vet output lacks %q\n%s", want, text)
		}
	}
	if strings.Contains(text, "handler.go:31") {
		t.Errorf("go vet reported the call through an interface, which needs the CLI's resolver:\n%s", text)
	}
	if n := strings.Count(text, "OBX"); n != 3 {
		t.Errorf("got %d findings, want 3:\n%s", n, text)
	}
}
