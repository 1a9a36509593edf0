package relaytest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/outboxify/outboxify/internal/testmod"
	"github.com/outboxify/outboxify/templates"
)

// TestRelayModuleBuildsOffline renders the relay's own module (go.mod,
// go.sum, code) for every database × broker, as a service gets it, and builds
// each with -mod=readonly, GOPROXY=off and GOWORK=off: the pinned go.mod is
// complete, go.sum holds every hash, and nothing is downloaded (the module
// cache outboxify's own build filled is enough).
func TestRelayModuleBuildsOffline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every relay module (database x broker)")
	}
	env := append(os.Environ(), "GOPROXY=off", "GOFLAGS=-mod=readonly", "GOWORK=off", "GOTOOLCHAIN=local")
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, db := range []string{"postgres", "mysql"} {
		for _, broker := range templates.RelayBrokers {
			cfg := templates.Config{Module: "example.com/service", DB: db, Broker: broker}
			files, err := templates.Render(cfg, "relay", "relaycmd", "relaymod")
			if err != nil {
				t.Fatalf("%s %s: %v", db, broker, err)
			}
			dir := t.TempDir()
			testmod.WriteRendered(t, dir, files)
			mod := filepath.Join(dir, "outbox-relay")
			gm, err := os.ReadFile(filepath.Join(mod, "go.mod"))
			if err != nil {
				t.Fatalf("%s %s: no go.mod in the relay module: %v", db, broker, err)
			}
			if strings.Contains(string(gm), "\ntoolchain ") {
				t.Errorf("%s %s: relay go.mod has a toolchain line:\n%s", db, broker, gm)
			}
			wg.Add(1)
			go func(db, broker string) {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				out, err := goIn(mod, env, "build", "-o", os.DevNull, ".")
				if err != nil {
					t.Errorf("%s %s: relay module does not build offline: %v\n%s", db, broker, err, out)
				}
			}(db, broker)
		}
	}
	wg.Wait()
}

// TestRelayModulesPinned: every requirement of the pinned relay modules that
// outboxify's go.mod also lists is at outboxify's version (the one its tests
// run the relay with). It fails after go.mod moves until `go generate
// ./templates` re-pins them.
func TestRelayModulesPinned(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testmod.Root(), "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	own, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, r := range own.Require {
		want[r.Mod.Path] = r.Mod.Version
	}
	for _, db := range []string{"postgres", "mysql"} {
		for _, broker := range templates.RelayBrokers {
			body, err := templates.RelayModFile(db, broker, "mod")
			if err != nil {
				t.Fatal(err)
			}
			mf, err := modfile.Parse("go.mod", []byte("module m\n"+body), nil)
			if err != nil {
				t.Fatalf("%s %s: %v", db, broker, err)
			}
			if len(mf.Require) == 0 {
				t.Errorf("%s %s: pinned relay module requires nothing", db, broker)
			}
			for _, r := range mf.Require {
				if v, ok := want[r.Mod.Path]; ok && v != r.Mod.Version {
					t.Errorf("%s %s: relay pins %s %s, outboxify's go.mod has %s: run go generate ./templates", db, broker, r.Mod.Path, r.Mod.Version, v)
				}
			}
		}
	}
}
