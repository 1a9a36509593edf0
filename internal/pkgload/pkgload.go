// Package pkgload is the one place outboxify calls packages.Load: it counts
// the loads, and the loads that type-check, so a test can hold a command to
// the number of times it loads the program.
package pkgload

import (
	"sync/atomic"

	"golang.org/x/tools/go/packages"
)

var loads, typeChecks atomic.Int64

// Load is packages.Load, counted.
func Load(cfg *packages.Config, patterns ...string) ([]*packages.Package, error) {
	loads.Add(1)
	if cfg != nil && cfg.Mode&(packages.NeedTypes|packages.NeedTypesInfo) != 0 {
		typeChecks.Add(1)
	}
	return packages.Load(cfg, patterns...)
}

// Counts are the loads since the process started (or the last Reset), and
// how many of them type-checked.
func Counts() (all, typeChecked int) {
	return int(loads.Load()), int(typeChecks.Load())
}

// Reset sets the counts to zero.
func Reset() {
	loads.Store(0)
	typeChecks.Store(0)
}
