package golangci_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis/analysistest"

	_ "github.com/outboxify/outboxify/analyzer/golangci"
)

func TestPlugin(t *testing.T) {
	newPlugin, err := register.GetPlugin("outboxify")
	if err != nil {
		t.Fatal(err)
	}
	// settings arrive as decoded YAML: maps and slices of any
	p, err := newPlugin(map[string]any{
		"publishers": []any{"(*cfg/app.Bus).Emit"},
		"writers":    []any{"(*cfg/app.Store).Put", "(github.com/redis/go-redis/v9.cmdable).Set"},
		"exclude":    []any{"testdata/src/cfg/app/legacy/..."}, // relative to this repository's module root
	})
	if err != nil {
		t.Fatal(err)
	}
	if p.GetLoadMode() != register.LoadModeTypesInfo {
		t.Errorf("load mode %q", p.GetLoadMode())
	}
	as, err := p.BuildAnalyzers()
	if err != nil || len(as) != 2 {
		t.Fatalf("BuildAnalyzers = %v, %v; want the dual-write and the consumer analyzer", as, err)
	}
	testdata, _ := filepath.Abs(filepath.Join("..", "..", "testdata"))
	analysistest.Run(t, testdata, as[0], "cfg/...")
	// the unit of work under the plugin: a rewrite that lost its accessor
	// or its guard is reported again, as in the CLI and under vet
	analysistest.Run(t, testdata, as[0], "shapes/product/unitofwork/...")
	// the consumer rules run too, on the consumer analyzer's own fixtures
	consumerData, _ := filepath.Abs(filepath.Join("..", "consumer", "testdata"))
	analysistest.Run(t, consumerData, as[1], "amqpc", "kafkago")
}

func TestUnknownSetting(t *testing.T) {
	newPlugin, _ := register.GetPlugin("outboxify")
	_, err := newPlugin(map[string]any{"publisher": []any{"x"}})
	if err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Fatalf("err = %v, want unknown field error", err)
	}
}
