package rewrite

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/internal/pkgload"
)

// Rewritable reports whether rewrite has a message mapping for the publish
// API with this full name.
func Rewritable(fullName string) bool { return publishers[fullName].messages != nil }

// Verify type-checks the edited packages again, with the edited files laid
// over the files on disk (extra adds files that do not exist yet, such as a
// generated outbox package). A file whose edit does not compile is dropped
// from res, so it stays untouched and its findings become manual.
// base supplies Dir and Env; Verify sets the mode and overlay.
func Verify(res *Result, base packages.Config, extra map[string][]byte) error {
	return VerifyWith(res, extra, func(overlay map[string][]byte, paths []string) ([]*packages.Package, error) {
		return TypeCheck(base, overlay, paths)
	})
}

// TypeCheck loads the packages with these paths, the overlay laid over the
// files on disk, with types (Verify's own load). base supplies Dir and Env.
func TypeCheck(base packages.Config, overlay map[string][]byte, paths []string) ([]*packages.Package, error) {
	cfg := base
	cfg.Mode = packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo
	cfg.Tests = false
	cfg.Overlay = overlay
	return pkgload.Load(&cfg, paths...)
}

// VerifyWith is Verify with the caller's load: given the overlay (the
// edited files and extra) and the edited packages' paths, it returns
// packages that include those, with their errors. fix loads the whole
// module this way, so that the load that checks the change is also the
// one its closing report reads.
func VerifyWith(res *Result, extra map[string][]byte, load func(overlay map[string][]byte, paths []string) ([]*packages.Package, error)) error {
	for round := 0; round < 8 && len(res.Files) > 0; round++ {
		overlay := map[string][]byte{}
		for p, b := range extra {
			overlay[p] = b
		}
		seen := map[string]bool{}
		var patterns []string
		for _, f := range res.Files {
			overlay[f.Path] = f.After
			if !seen[f.PkgPath] {
				seen[f.PkgPath] = true
				patterns = append(patterns, f.PkgPath)
			}
		}
		pkgs, err := load(overlay, patterns)
		if err != nil {
			return fmt.Errorf("type-check rewritten packages: %w", err)
		}
		dropped := false
		for _, p := range pkgs {
			if len(p.Errors) == 0 {
				continue
			}
			blamed := map[*FileEdit]string{}
			errs := p.Errors
			if len(p.TypeErrors) > 0 {
				// Type errors carry the original file names of overlaid files.
				errs = nil
				for _, te := range p.TypeErrors {
					errs = append(errs, packages.Error{Pos: te.Fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
				}
			}
			for _, e := range errs {
				file := errorFile(e.Pos)
				hit := false
				for _, f := range res.Files {
					if file != "" && sameFile(file, f.Path) {
						if _, ok := blamed[f]; !ok {
							blamed[f] = e.Msg
						}
						hit = true
					}
				}
				if !hit {
					// Not in an edited file (e.g. a name an edit removed):
					// blame every edited file of the package.
					for _, f := range res.Files {
						if f.PkgPath == p.PkgPath {
							if _, ok := blamed[f]; !ok {
								blamed[f] = e.Msg
							}
						}
					}
				}
			}
			for f, msg := range blamed {
				if os.Getenv("OUTBOXIFY_DEBUG_REWRITE") != "" {
					fmt.Fprintf(os.Stderr, "=== %s does not compile: %s\n%s\n", f.Path, msg, f.After)
				}
				msg = strings.Join(strings.Fields(msg), " ")
				res.Drop(f, "the rewritten file would not compile ("+msg+"); left unchanged")
				dropped = true
			}
		}
		if !dropped {
			return nil
		}
	}
	return nil
}

// errorFile extracts the file name from a "file:line:col" position.
func errorFile(pos string) string {
	parts := strings.Split(pos, ":")
	for len(parts) > 1 {
		if _, err := strconv.Atoi(parts[len(parts)-1]); err != nil {
			break
		}
		parts = parts[:len(parts)-1]
	}
	return strings.Join(parts, ":")
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(ia, ib)
	}
	return filepath.Clean(a) == filepath.Clean(b)
}
