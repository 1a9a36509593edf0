package dualwrite_test

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

func TestConfig(t *testing.T) {
	cfg := &config.Config{
		Root:       filepath.Join(testdata, "src", "cfg"),
		Publishers: []config.Entry{{Name: "(*cfg/app.Bus).Emit"}},
		Writers:    []config.Entry{{Name: "(*cfg/app.Store).Put", Store: "documents"}, {Name: "(github.com/redis/go-redis/v9.cmdable).Set", Store: "redis"}},
		Exclude:    []string{"app/legacy/..."},
	}
	analysistest.Run(t, testdata, dualwrite.NewAnalyzer(dualwrite.Options{Config: cfg}), "cfg/...")
}

func TestConfigFlags(t *testing.T) {
	a := dualwrite.NewAnalyzer(dualwrite.Options{})
	for flag, v := range map[string]string{
		"publishers": "(*cfg/app.Bus).Emit",
		"writers":    "(*cfg/app.Store).Put,(github.com/redis/go-redis/v9.cmdable).Set",
		"exclude":    "app/legacy/...",
	} {
		if err := a.Flags.Set(flag, v); err != nil {
			t.Fatal(err)
		}
	}
	// Without a module root the exclude patterns cannot apply: the legacy
	// package is analyzed and reported.
	res := analysistest.Run(&collect{T: t}, testdata, a, "cfg/...")
	n := 0
	for _, r := range res {
		for _, d := range r.Diagnostics {
			if strings.HasPrefix(d.Message, "OBX001") {
				n++
			}
		}
	}
	if n != 3 {
		t.Errorf("got %d OBX001 findings with flags, want 3 (2 in app, 1 in legacy)", n)
	}
}

// TestTestsOption: _test.go files are skipped unless Tests is set.
func TestTestsOption(t *testing.T) {
	analysistest.Run(t, testdata, dualwrite.Analyzer, "testsopt") // silent: the dual write is in a test
	pkgs := loadTestFixtures(t, "testsopt")
	got := findings(t, dualwrite.NewAnalyzer(dualwrite.Options{Tests: true}), pkgs)
	n := 0
	for k := range got {
		if strings.Contains(k, "testsopt_test.go") && strings.HasSuffix(k, "OBX001") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("with Tests: got findings %v, want one OBX001 in testsopt_test.go", got)
	}
}

// collect lets analysistest report unexpected diagnostics without failing:
// the test counts them itself.
type collect struct{ *testing.T }

func (c *collect) Errorf(format string, args ...any) {}
