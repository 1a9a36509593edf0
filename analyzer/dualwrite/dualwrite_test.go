package dualwrite_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

var testdata, _ = filepath.Abs(filepath.Join("..", "..", "testdata"))

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, testdata, dualwrite.Analyzer, "shapes/...")
}

func TestFacts(t *testing.T) {
	analysistest.Run(t, testdata, dualwrite.Analyzer.Requires[0], "facts/...")
}
