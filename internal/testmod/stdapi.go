package testmod

import (
	"bufio"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// StdlibTooNew loads the packages matching patterns in dir and lists the
// standard-library symbols they use that came after Go goVersion (per the
// toolchain's $GOROOT/api/go1.N.txt files). go vet's stdversion check says
// nothing for modules whose go line is older than go1.21, so service-side
// generated code for a go 1.16 module is checked with this instead.
func StdlibTooNew(dir, goVersion string, patterns ...string) ([]string, error) {
	minor, err := goMinor(goVersion)
	if err != nil {
		return nil, err
	}
	newer, err := stdSymbolsAfter(minor)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{Dir: dir, Mode: packages.NeedName | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedSyntax,
		Env: append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			return nil, fmt.Errorf("load %s: %v", p.PkgPath, e)
		}
		for id, obj := range p.TypesInfo.Uses {
			key := apiKey(obj)
			if key == "" {
				continue
			}
			if v, ok := newer[key]; ok && !seen[key] {
				seen[key] = true
				out = append(out, fmt.Sprintf("%s: %s (Go %s)", p.Fset.Position(id.Pos()), strings.ReplaceAll(key, "|", " "), v))
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

func goMinor(v string) (int, error) {
	parts := strings.SplitN(strings.TrimPrefix(v, "go"), ".", 3)
	if len(parts) < 2 || parts[0] != "1" {
		return 0, fmt.Errorf("go version %q: want 1.N", v)
	}
	return strconv.Atoi(parts[1])
}

// apiKey names a standard-library object the way stdSymbolsAfter does:
// "path|kind|recv|name"; "" for objects outside the standard library.
func apiKey(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	path := obj.Pkg().Path()
	if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") || path == "main" {
		return ""
	}
	switch o := obj.(type) {
	case *types.Func:
		sig, _ := o.Type().(*types.Signature)
		if sig != nil && sig.Recv() != nil {
			t := sig.Recv().Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if n, ok := t.(*types.Named); ok {
				return path + "|method|" + n.Obj().Name() + "|" + o.Name()
			}
			return "" // interface methods are listed differently; the type's own entry covers them
		}
		return path + "|func||" + o.Name()
	case *types.TypeName:
		return path + "|type||" + o.Name()
	case *types.Const:
		return path + "|const||" + o.Name()
	case *types.Var:
		if o.IsField() || o.Parent() != o.Pkg().Scope() {
			return ""
		}
		return path + "|var||" + o.Name()
	}
	return ""
}

var apiLine = regexp.MustCompile(`^pkg ([^ ,]+)(?: \([^)]*\))?, (func|method|type|const|var) (?:\(\*?(\w+)\) )?(\w+)`)

// stdSymbolsAfter maps every standard-library symbol added after Go 1.minor
// to the Go version that added it.
func stdSymbolsAfter(minor int) (map[string]string, error) {
	out := map[string]string{}
	for n := minor + 1; ; n++ {
		name := filepath.Join(runtime.GOROOT(), "api", fmt.Sprintf("go1.%d.txt", n))
		f, err := os.Open(name)
		if os.IsNotExist(err) {
			break
		}
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			m := apiLine.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			if m[2] == "type" && strings.Contains(sc.Text(), ", method ") {
				continue
			}
			key := m[1] + "|" + m[2] + "|" + m[3] + "|" + m[4]
			if _, ok := out[key]; !ok {
				out[key] = fmt.Sprintf("1.%d", n)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no API files after go1.%d in %s/api", minor, runtime.GOROOT())
	}
	return out, nil
}
