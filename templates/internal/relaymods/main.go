// Command relaymods pins the generated relay module's requirements: for
// every database and broker it renders the relay into a temporary module
// whose go.mod requires what outboxify's own go.mod requires (the versions
// outboxify's tests run the relay with), runs go mod tidy, and stores the
// tidied go line, requirements and go.sum as templates/relaymods/<db>_<broker>.mod
// and .sum. Run it with `go generate ./templates` after changing go.mod or
// a relay template's imports; TestRelayModulesPinned fails when it is due.
//
// The module cache usually holds everything already (outboxify's own tests
// need the same modules); GOPROXY decides where anything missing comes from.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/outboxify/outboxify/templates"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "relaymods:", err)
		os.Exit(1)
	}
}

func run() error {
	gomod, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	own, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	ownSum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	mf, err := modfile.Parse("go.mod", own, nil)
	if err != nil {
		return err
	}
	out := filepath.Join(root, "templates", "relaymods")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, db := range []string{"postgres", "mysql"} {
		for _, broker := range templates.RelayBrokers {
			mod, sum, err := pin(db, broker, mf, ownSum)
			if err != nil {
				return fmt.Errorf("%s %s: %w", db, broker, err)
			}
			base := filepath.Join(out, db+"_"+broker)
			if err := os.WriteFile(base+".mod", mod, 0o644); err != nil {
				return err
			}
			if err := os.WriteFile(base+".sum", sum, 0o644); err != nil {
				return err
			}
			fmt.Printf("pinned %s_%s\n", db, broker)
		}
	}
	return nil
}

// pin renders one relay, tidies its module and returns the go.mod body
// (without the module line) and go.sum.
func pin(db, broker string, own *modfile.File, ownSum []byte) ([]byte, []byte, error) {
	dir, err := os.MkdirTemp("", "relaymod-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	cfg := templates.Config{Module: "example.com/service", DB: db, Broker: broker}
	files, err := templates.Render(cfg, "relay", "relaycmd")
	if err != nil {
		return nil, nil, err
	}
	c := cfg.WithDefaults()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(p, f.Content, 0o644); err != nil {
			return nil, nil, err
		}
	}
	modDir := filepath.Join(dir, filepath.FromSlash(c.RelayModuleDir))
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n\ngo %s\n\nrequire (\n", c.RelayModule(), templates.RelayMinGo)
	for _, r := range own.Require {
		fmt.Fprintf(&b, "\t%s %s\n", r.Mod.Path, r.Mod.Version)
	}
	b.WriteString(")\n")
	if err := os.WriteFile(filepath.Join(modDir, "go.mod"), []byte(b.String()), 0o644); err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(filepath.Join(modDir, "go.sum"), ownSum, 0o644); err != nil {
		return nil, nil, err
	}
	cmd := exec.Command("go", "mod", "tidy")
	cmd.Dir = modDir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, nil, fmt.Errorf("go mod tidy: %w\n%s", err, out)
	}
	tidy, err := os.ReadFile(filepath.Join(modDir, "go.mod"))
	if err != nil {
		return nil, nil, err
	}
	tf, err := modfile.Parse("go.mod", tidy, nil)
	if err != nil {
		return nil, nil, err
	}
	tf.DropToolchainStmt() // a toolchain line would force a download on every builder
	tf.Cleanup()
	formatted, err := tf.Format()
	if err != nil {
		return nil, nil, err
	}
	// The service's module path goes in at render time.
	_, body, _ := strings.Cut(string(formatted), "\n")
	sum, err := os.ReadFile(filepath.Join(modDir, "go.sum"))
	if err != nil {
		return nil, nil, err
	}
	return []byte(strings.TrimLeft(body, "\n")), sum, nil
}
