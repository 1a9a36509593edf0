package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/outboxify/outboxify/generate"
	"github.com/outboxify/outboxify/internal/modcheck"
	"github.com/outboxify/outboxify/rewrite"
)

// change is what fix or generate is about to write, checked as a whole
// before anything is written: the service module with the change as an
// overlay, and the relay's own module in a temporary directory.
type change struct {
	root    string
	service modcheck.Changes  // absolute path -> new content (nil: removed)
	relay   map[string][]byte // relay module files, relative to its root
	// vendorGaps are packages the generated code imports from modules
	// the service requires that vendor/ does not hold: `go mod vendor`
	// runs after writing.
	vendorGaps []string
	before     *modcheck.Result
}

// planChange gathers the service-side files (rewrites and generated files
// outside the relay module) and the relay module's files.
func planChange(root string, cs *generate.Changeset, res *rewrite.Result) (*change, error) {
	c := &change{root: root, service: modcheck.Changes{}, relay: map[string][]byte{}}
	if res != nil {
		for _, f := range res.Files {
			c.service[f.Path] = f.After
		}
	}
	if cs != nil {
		prefix := cs.Config.RelayModuleDir + "/"
		for _, ch := range cs.Changes {
			if cs.InRelayModule(ch.Path) {
				if ch.Action != generate.Remove {
					c.relay[strings.TrimPrefix(ch.Path, prefix)] = ch.New
				}
				continue
			}
			abs := filepath.Join(root, filepath.FromSlash(ch.Path))
			switch ch.Action {
			case generate.Create, generate.Update:
				c.service[abs] = ch.New
			case generate.Remove:
				c.service[abs] = nil
			}
		}
		gaps, err := vendorGaps(root, cs)
		if err != nil {
			return nil, err
		}
		c.vendorGaps = gaps
	}
	// Relay files not regenerated (unchanged on disk) complete the module.
	if cs != nil && len(c.relay) > 0 {
		dir := filepath.Join(root, filepath.FromSlash(cs.Config.RelayModuleDir))
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			if _, ok := c.relay[rel]; !ok {
				if b, err := os.ReadFile(p); err == nil {
					c.relay[rel] = b
				}
			}
			return nil
		})
	}
	return c, nil
}

// buildFlags are the flags both builds use: with packages missing from
// vendor/, the module is built from the module cache (go.mod and go.sum as
// they are) since `go mod vendor` only runs once the files are written.
func (c *change) buildFlags() []string {
	// Never -mod=mod (a GOFLAGS default some users have): a check build
	// must not add requirements to go.mod.
	if hasVendor(c.root) && len(c.vendorGaps) == 0 {
		return []string{"-mod=vendor"}
	}
	return []string{"-mod=readonly"}
}

// baseline builds the module as it is, so errors it already had do not
// count against the change.
func (c *change) baseline() error {
	b, err := modcheck.Build(c.root, nil, c.buildFlags(), nil)
	if err != nil {
		return err
	}
	c.before = b
	return nil
}

// check builds the service module with the change as an overlay and the
// relay module apart. It returns an error naming what the change would
// break; nothing is written either way.
func (c *change) check(warn io.Writer) error {
	if len(c.service) > 0 {
		after, err := modcheck.Build(c.root, c.service, c.buildFlags(), nil)
		if err != nil {
			return err
		}
		if errs := modcheck.New(c.before, after); len(errs) > 0 {
			return fmt.Errorf("the change would add build errors (%s):\n%s", strings.Join(errs, "; "), after.Excerpt())
		}
	}
	if len(c.relay) > 0 && c.relay["go.mod"] != nil {
		res, fetch, err := modcheck.BuildTree(c.relay)
		if err != nil {
			return err
		}
		switch {
		case fetch:
			fmt.Fprintf(warn, "outboxify: the relay module was not built: its modules could not be downloaded here (build it with GOWORK=off go build ./... where they can):\n%s\n", res.Excerpt())
		case !res.OK:
			return fmt.Errorf("the generated relay module does not build:\n%s", res.Excerpt())
		}
	}
	return nil
}

// vendorGaps lists the packages generated service-side code imports from
// modules go.mod requires that a vendored module's vendor/ does not hold
// (none when the module does not vendor).
func vendorGaps(root string, cs *generate.Changeset) ([]string, error) {
	if !hasVendor(root) {
		return nil, nil
	}
	imports, err := cs.ServiceImports()
	if err != nil {
		return nil, err
	}
	var gaps []string
	for _, p := range imports {
		if fi, err := os.Stat(filepath.Join(root, "vendor", filepath.FromSlash(p))); err != nil || !fi.IsDir() {
			gaps = append(gaps, p)
		}
	}
	return gaps, nil
}

// revendor runs `go mod vendor` after the files are written, keeping the
// previous vendor/ aside until the module builds with the new one; on
// failure the previous one is put back.
func revendor(root string, before *modcheck.Result) error {
	vendor := filepath.Join(root, "vendor")
	old := filepath.Join(root, ".vendor.outboxify-previous")
	_ = os.RemoveAll(old)
	if err := os.Rename(vendor, old); err != nil {
		return fmt.Errorf("go mod vendor: keep vendor/ aside: %w", err)
	}
	undo := func() {
		_ = os.RemoveAll(vendor)
		_ = os.Rename(old, vendor)
	}
	cmd := exec.Command("go", "mod", "vendor")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		undo()
		return fmt.Errorf("go mod vendor: %w\n%s", err, out)
	}
	b, err := modcheck.Build(root, nil, nil, nil)
	if err == nil {
		if errs := modcheck.New(before, b); len(errs) > 0 {
			err = fmt.Errorf("the module does not build with the new vendor/ (%s):\n%s", strings.Join(errs, "; "), b.Excerpt())
		}
	}
	if err != nil {
		undo()
		return err
	}
	return os.RemoveAll(old)
}
