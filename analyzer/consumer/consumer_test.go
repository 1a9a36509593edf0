package consumer_test

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/analyzer/consumer"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), consumer.Analyzer,
		"kafkago", "saramacg", "franz", "natscore", "jetstreamc", "amqpc", "sqsc", "pubsubc", "external", "crosspkg", "example.com/repo", "example.com/mailer")
}

// TestInventory checks the consumers the analyzer lists for the report:
// guards and keyed external calls, not only the findings.
func TestInventory(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), consumer.Analyzer, "natscore", "external", "inboxglue")
	got := map[string][]string{}
	for _, r := range results {
		res := r.Result.(*consumer.Result)
		for _, c := range res.Consumers {
			s := string(c.Guard)
			for _, e := range c.External {
				s += fmt.Sprintf(" %s keyed=%v", e.Call.Name, e.Keyed)
			}
			got[r.Pass.Pkg.Path()] = append(got[r.Pass.Pkg.Path()], fmt.Sprintf("%d:%s", c.Call.Position.Line, s))
		}
	}
	want := map[string][]string{
		"natscore":  {"26:none", "29:none", "30:idempotent", "31:no-writes", "34:inbox", "43:idempotent", "44:none", "51:none"},
		"inboxglue": {"15:inbox", "16:inbox"},
		"external": {
			"35:no-writes (*external.PaymentClient).Charge keyed=false",
			"38:no-writes (*external.PaymentClient).Charge keyed=true",
			"42:no-writes net/http.Post keyed=false",
			"46:no-writes",
			"52:no-writes (*net/http.Client).Do keyed=true",
			"62:no-writes github.com/stripe/stripe-go/v76/charge.New keyed=false",
			"65:no-writes github.com/stripe/stripe-go/v76/charge.New keyed=true",
		},
	}
	for pkg, w := range want {
		if !slices.Equal(got[pkg], w) {
			t.Errorf("%s consumers:\n got %q\nwant %q", pkg, got[pkg], w)
		}
	}
}

// TestConfigured: writers from .outboxify.yaml and configured external APIs
// are seen; the default analyzer knows neither (no findings there).
func TestConfigured(t *testing.T) {
	cfg, err := config.Parse([]byte("writers:\n  - (*configured.Store).Put\n"))
	if err != nil {
		t.Fatal(err)
	}
	a := consumer.NewAnalyzer(consumer.Options{Config: cfg, External: []string{"(*configured.Notifier).Notify"}})
	analysistest.Run(t, analysistest.TestData(), a, "configured")

	res := analysistest.Run(&quiet{T: t}, analysistest.TestData(), consumer.Analyzer, "configured")
	if n := len(res[0].Result.(*consumer.Result).Findings); n != 0 {
		t.Errorf("default analyzer: %d findings on configured-only APIs, want 0", n)
	}
}

// TestConfiguredExternalKey: the external: key of .outboxify.yaml does what
// the External option does.
func TestConfiguredExternalKey(t *testing.T) {
	cfg, err := config.Parse([]byte("writers:\n  - (*configured.Store).Put\nexternal:\n  - (*configured.Notifier).Notify\n"))
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), consumer.NewAnalyzer(consumer.Options{Config: cfg}), "configured")
}

// quiet swallows analysistest's complaints about unmatched // want lines
// when a run is expected to report less than the fixture announces.
type quiet struct{ *testing.T }

func (q *quiet) Errorf(string, ...any) {}
