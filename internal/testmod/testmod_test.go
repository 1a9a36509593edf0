package testmod

import (
	"strings"
	"testing"
)

func TestBuildUsesRepoRequirements(t *testing.T) {
	dir := New(t, "example.com/svc", map[string][]byte{
		"main.go": []byte("package main\n\nimport \"github.com/spf13/cobra\"\n\nfunc main() { _ = cobra.Command{} }\n"),
	})
	Go(t, dir, "build", "./...")
	if out, err := GoErr(dir, "build", "-o", "/dev/null", "./nope"); err == nil || !strings.Contains(out, "nope") {
		t.Fatalf("building a missing package succeeded: %v %s", err, out)
	}
}
