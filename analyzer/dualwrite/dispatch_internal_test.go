package dualwrite

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestNoLibraryDispatchers: a handler function value registered with gin's
// Group (no catalog row; its body stores the handlers) does not make gin's
// RouterGroup a dispatcher whose methods run what was registered: the
// catalog's rows say what a router does (vela's route setup was paired
// with a start-up write through gin.Engine.Use before).
func TestNoLibraryDispatchers(t *testing.T) {
	testdata, _ := filepath.Abs(filepath.Join("..", "..", "testdata"))
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  testdata + "/src",
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOFLAGS=", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, "shapes/product/ginsetup")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("fixture does not load: %v", err)
	}
	r := ProgramResolver(pkgs, nil).(*programResolver)
	d := r.dispatchFor(pkgs[0].Types)
	for tn := range d {
		if tn.Pkg() != nil && tn.Pkg().Path() == "github.com/gin-gonic/gin" {
			t.Errorf("gin's %s taken for a dispatcher", tn.Name())
		}
	}
}
