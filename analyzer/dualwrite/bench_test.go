package dualwrite_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// BenchmarkAnalyzer measures the analysis alone (packages loaded once) in
// both modes over the fixtures: facts over every package (go vet), and the
// resolver on the roots (the CLI).
func BenchmarkAnalyzer(b *testing.B) {
	pkgs := loadFixtures(b, "shapes/...", "rows/...")
	b.Run("facts", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := checker.Analyze([]*analysis.Analyzer{dualwrite.NewAnalyzer(dualwrite.Options{})}, pkgs, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("resolver", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			a := dualwrite.NewAnalyzer(dualwrite.Options{Resolver: dualwrite.ProgramResolver(pkgs, nil)})
			if _, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
