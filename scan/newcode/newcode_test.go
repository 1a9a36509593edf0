package newcode_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/scan/newcode"
)

const gitPatch = `diff --git a/svc/svc.go b/svc/orders.go
similarity index 90%
rename from svc/svc.go
rename to svc/orders.go
index 1111111..2222222 100644
--- a/svc/svc.go
+++ b/svc/orders.go
@@ -3,0 +4,2 @@ import (
+	"fmt"
+	"os"
@@ -20 +22 @@ func Place() {
-	old()
+	new()
@@ -30,2 +31,0 @@ func Gone() {
-	a()
-	b()
diff --git a/svc/pure.go b/svc/moved.go
similarity index 100%
rename from svc/pure.go
rename to svc/moved.go
diff --git a/new.go b/new.go
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/new.go
@@ -0,0 +1,2 @@
+package x
+
diff --git a/old.go b/old.go
deleted file mode 100644
--- a/old.go
+++ /dev/null
@@ -1,2 +0,0 @@
-package x
-
diff --git "a/sp ace/t\tab.go" "b/sp ace/t\tab.go"
--- "a/sp ace/t\tab.go"
+++ "b/sp ace/t\tab.go"
@@ -1,3 +1,3 @@
 package x
-var a = 1
+var a = 2
 // --- not a header
`

func TestParsePatch(t *testing.T) {
	root := t.TempDir()
	c, err := newcode.ParsePatch(strings.NewReader(gitPatch), root)
	if err != nil {
		t.Fatal(err)
	}
	at := func(f string) string { return filepath.Join(root, f) }
	for _, tc := range []struct {
		file     string
		from, to int
		want     bool
	}{
		{"svc/orders.go", 4, 4, true},
		{"svc/orders.go", 5, 5, true},
		{"svc/orders.go", 6, 21, false},
		{"svc/orders.go", 22, 22, true},
		{"svc/orders.go", 23, 40, false}, // a deletion leaves no line behind
		{"svc/svc.go", 1, 100, false},    // renamed away
		{"svc/moved.go", 1, 100, false},  // a pure rename changes nothing
		{"new.go", 50, 50, true},         // a new file counts in full
		{"old.go", 1, 2, false},
		{"sp ace/t\tab.go", 2, 2, true},
		{"sp ace/t\tab.go", 3, 3, false},
	} {
		if got := c.Touches(at(tc.file), tc.from, tc.to); got != tc.want {
			t.Errorf("%s:%d-%d touched = %v, want %v", tc.file, tc.from, tc.to, got, tc.want)
		}
	}
	files := c.Files()
	sort.Strings(files)
	if len(files) != 3 {
		t.Errorf("files = %q, want orders.go, new.go and the quoted one", files)
	}
}

// TestParsePatchPlainDiff: diff -u output (dates after tabs, no b/ prefix).
func TestParsePatchPlainDiff(t *testing.T) {
	root := t.TempDir()
	patch := "--- svc/svc.go.orig\t2024-01-01 00:00:00\n+++ svc/svc.go\t2024-01-02 00:00:00\n@@ -1,2 +1,3 @@\n package svc\n+// added\n \n"
	c, err := newcode.ParsePatch(strings.NewReader(patch), root)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Touches(filepath.Join(root, "svc/svc.go"), 2, 2) || c.Touches(filepath.Join(root, "svc/svc.go"), 1, 1) {
		t.Errorf("files %q: want line 2 of svc/svc.go only", c.Files())
	}
}

func TestParsePatchErrors(t *testing.T) {
	for name, patch := range map[string]string{
		"truncated":   "--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,3 @@\n package x\n",
		"bad header":  "--- a/x.go\n+++ b/x.go\n@@ -1,x +1 @@\n",
		"not a patch": "hello\nworld\n",
	} {
		if _, err := newcode.ParsePatch(strings.NewReader(patch), "/r"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if c, err := newcode.ParsePatch(strings.NewReader(""), "/r"); err != nil || len(c.Files()) != 0 {
		t.Errorf("empty patch: %v %v, want no changes", c, err)
	}
}
