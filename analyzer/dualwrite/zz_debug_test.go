package dualwrite

import (
	"fmt"
	"go/types"
	"os"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

func TestZZDebug(t *testing.T) {
	dir := os.Getenv("ZZDIR")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir, Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")}
	pkgs, err := packages.Load(cfg, strings.Fields(os.Getenv("ZZPKGS"))...)
	if err != nil {
		t.Fatal(err)
	}
	r := ProgramResolver(pkgs, nil).(*programResolver)
	want := strings.Split(os.Getenv("ZZFUNCS"), ",")
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil {
			return
		}
		for _, id := range p.TypesInfo.Defs {
			fn, ok := id.(*types.Func)
			if !ok {
				continue
			}
			for _, w := range want {
				if w != "" && strings.HasSuffix(fn.FullName(), w) {
					e, iface := r.Effects(fn)
					s := "<nil>"
					if e != nil {
						s = fmt.Sprintf("W=%v P=%v O=%v", e.Write != nil, e.Publish != nil, e.Outbox != nil)
						if e.Publish != nil {
							s += fmt.Sprintf(" pub=%s via=%v", e.Publish.Name, e.Publish.Via)
						}
						if e.Write != nil {
							s += fmt.Sprintf(" write=%s via=%v", e.Write.Name, e.Write.Via)
						}
					}
					fmt.Printf("ZZ %s iface=%v %s\n", fn.FullName(), iface, s)
				}
			}
		}
	})
}

func TestZZFindings(t *testing.T) {
	dir := os.Getenv("ZZDIR")
	if dir == "" {
		t.Skip()
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir, Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")}
	pkgs, err := packages.Load(cfg, strings.Fields(os.Getenv("ZZPKGS"))...)
	if err != nil {
		t.Fatal(err)
	}
	a := NewAnalyzer(Options{Resolver: ProgramResolver(pkgs, nil)})
	var roots []*packages.Package
	for _, p := range pkgs {
		if strings.Contains(p.PkgPath, os.Getenv("ZZROOT")) {
			roots = append(roots, p)
		}
	}
	g, err := checkerAnalyze(a, roots)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range g {
		fmt.Printf("ZZF %s %s:%d %s\n", f.Func, f.Publish.Position.Filename, f.Publish.Position.Line, f.Rule)
	}
}
