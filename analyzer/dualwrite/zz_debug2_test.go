package dualwrite

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

func checkerAnalyze(a *analysis.Analyzer, pkgs []*packages.Package) ([]Finding, error) {
	g, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for act := range g.All() {
		if act.Analyzer != a || !act.IsRoot || act.Result == nil {
			continue
		}
		out = append(out, act.Result.(*Result).Findings...)
	}
	return out, nil
}
