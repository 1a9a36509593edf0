package scan

import (
	"fmt"
	"path/filepath"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/internal/pkgload"
)

// widen returns the patterns that load the whole main module(s) of the
// packages the patterns name, and those packages' paths: an interface
// called in ./service/... is often implemented in a sibling package, and a
// dual write behind it is seen only when that package is loaded too. It
// returns nil patterns when the patterns already name every package of
// their modules (nothing to widen) or name none of a main module.
func widen(pcfg *packages.Config, patterns []string) ([]string, map[string]bool, error) {
	names := *pcfg
	names.Mode = packages.NeedName | packages.NeedModule
	names.Fset = nil
	names.Tests = false
	asked, err := pkgload.Load(&names, patterns...)
	if err != nil {
		return nil, nil, fmt.Errorf("listing %v: %w", patterns, err)
	}
	paths := map[string]bool{}
	var modules []string
	seen := map[string]bool{}
	for _, p := range asked {
		paths[p.PkgPath] = true
		if p.Module != nil && p.Module.Main && p.Module.Dir != "" && !seen[p.Module.Dir] {
			seen[p.Module.Dir] = true
			modules = append(modules, filepath.Join(p.Module.Dir, "..."))
		}
	}
	if len(modules) == 0 {
		return nil, paths, nil
	}
	all, err := pkgload.Load(&names, modules...)
	if err != nil {
		return nil, nil, fmt.Errorf("listing the module %v: %w", modules, err)
	}
	more := false
	for _, p := range all {
		if !paths[p.PkgPath] {
			more = true
			break
		}
	}
	if !more {
		return nil, paths, nil
	}
	return append(append([]string(nil), patterns...), modules...), paths, nil
}

// keepAsked drops what the widened load found outside the packages asked
// for: their findings and consumers.
func (p *Program) keepAsked(asked map[string]bool) {
	files := map[string]bool{}
	for _, pkg := range p.Packages {
		if asked[pkg.PkgPath] {
			for _, f := range pkg.CompiledGoFiles {
				files[f] = true
			}
			for _, f := range pkg.GoFiles {
				files[f] = true
			}
		}
	}
	var fs []dualwrite.Finding
	for _, f := range p.Findings {
		if files[f.Publish.Position.Filename] {
			fs = append(fs, f)
		}
	}
	p.Findings = fs
	cs := p.Consumers[:0]
	for _, c := range p.Consumers {
		if files[c.Call.Position.Filename] {
			cs = append(cs, c)
		}
	}
	p.Consumers = cs
}
