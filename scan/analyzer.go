package scan

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// newAnalyzer is the dual-write analyzer for a loaded program. The CLI has
// the whole program, so it resolves interface calls against the loaded
// implementations (dualwrite.ProgramResolver) instead of running the facts
// analyzer over every dependency: the analyzer then runs on the roots only.
func newAnalyzer(cfg *config.Config, tests bool, pkgs []*packages.Package) *analysis.Analyzer {
	return dualwrite.NewAnalyzer(dualwrite.Options{
		Resolver: dualwrite.ProgramResolver(pkgs, cfg),
		Config:   cfg,
		Tests:    tests,
	})
}
