package rewrite

import (
	"sort"
	"testing"

	"github.com/outboxify/outboxify/analyzer/catalog"
)

// The rewrite table is keyed by the same full names as the analyzer's
// catalog: a key the catalog does not know is a typo or a stale name, and
// its findings would never reach the rewriter.
func TestPublishersAreCatalogRows(t *testing.T) {
	cat := catalog.Default()
	for name := range publishers {
		e, ok := cat.Lookup(name)
		if !ok {
			t.Errorf("rewrite rule %s: no catalog row of that name", name)
			continue
		}
		if e.Kind != catalog.Publish {
			t.Errorf("rewrite rule %s: catalog row is %s, not publish", name, e.Kind)
		}
	}
	var manual []string
	for _, e := range cat.Entries() {
		if e.Kind == catalog.Publish {
			if _, ok := publishers[e.Name]; !ok {
				manual = append(manual, e.Name)
			}
		}
	}
	sort.Strings(manual)
	t.Logf("publish rows left to a person (no rewrite rule): %d", len(manual))
	for _, n := range manual {
		t.Log("  ", n)
	}
}
