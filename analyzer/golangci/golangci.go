// Package golangci registers outboxify's analyzers (dual-write rules and
// consumer rules) as a golangci-lint module plugin named "outboxify". Its imports stay limited to
// the analyzer and the plugin register, because `golangci-lint custom`
// builds it into golangci-lint's own module graph.
package golangci

import (
	"fmt"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/analyzer/consumer"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

func init() { register.Plugin("outboxify", New) }

// Settings are read from linters.settings.custom.outboxify.settings.
type Settings struct {
	// Config is the .outboxify.yaml to use; empty: the one at each
	// package's module root.
	Config     string   `json:"config"`
	Publishers []string `json:"publishers"` // extra publish calls by full name
	Writers    []string `json:"writers"`    // extra DB writes by full name
	Exclude    []string `json:"exclude"`    // module-relative paths or globs to skip
	Tests      bool     `json:"tests"`      // analyze _test.go files too
}

// Plugin is the golangci-lint plugin.
type Plugin struct{ settings Settings }

// New decodes the settings; unknown keys are errors.
func New(settings any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](settings)
	if err != nil {
		return nil, fmt.Errorf("outboxify settings: %w", err)
	}
	return &Plugin{settings: s}, nil
}

// BuildAnalyzers returns the dual-write analyzer and the consumer analyzer
// configured by the settings (the consumer rules take the extra writers and
// the tests switch; the other settings are dual-write ones).
func (p *Plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	a := dualwrite.NewAnalyzer(dualwrite.Options{Tests: p.settings.Tests})
	for flag, v := range map[string]string{
		"config":     p.settings.Config,
		"publishers": strings.Join(p.settings.Publishers, ","),
		"writers":    strings.Join(p.settings.Writers, ","),
		"exclude":    strings.Join(p.settings.Exclude, ","),
	} {
		if v == "" {
			continue
		}
		if err := a.Flags.Set(flag, v); err != nil {
			return nil, fmt.Errorf("outboxify settings: %s: %w", flag, err)
		}
	}
	cfg := &config.Config{Tests: p.settings.Tests}
	for _, w := range p.settings.Writers {
		cfg.Writers = append(cfg.Writers, config.Entry{Name: w})
	}
	c := consumer.NewAnalyzer(consumer.Options{Config: cfg, Tests: p.settings.Tests})
	return []*analysis.Analyzer{a, c}, nil
}

// GetLoadMode: the analyzer needs type information.
func (p *Plugin) GetLoadMode() string { return register.LoadModeTypesInfo }
