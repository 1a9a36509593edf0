package scan

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// newAnalyzer is the dual-write analyzer for a loaded program.
func newAnalyzer(cfg *config.Config, tests bool, pkgs []*packages.Package) *analysis.Analyzer {
	return dualwrite.NewAnalyzer(dualwrite.Options{Config: cfg, Tests: tests})
}
