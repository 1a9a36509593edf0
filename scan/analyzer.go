package scan

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/analyzer/consumer"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// newAnalyzers are the analyzers of a scan: the dual-write rules and the
// consumer rules (OBX101, OBX102). The CLI has the whole program, so the
// dual-write analyzer resolves interface calls against the loaded
// implementations (dualwrite.ProgramResolver) instead of running facts over
// every dependency: it runs on the roots only.
func newAnalyzers(cfg *config.Config, tests bool, pkgs []*packages.Package) ([]*analysis.Analyzer, dualwrite.Resolver) {
	res := dualwrite.ProgramResolver(pkgs, cfg)
	return []*analysis.Analyzer{
		dualwrite.NewAnalyzer(dualwrite.Options{
			Resolver: res,
			Config:   cfg,
			Tests:    tests,
		}),
		consumer.NewAnalyzer(consumer.Options{Config: cfg, Tests: tests}),
	}, res
}
