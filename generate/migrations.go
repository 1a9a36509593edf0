package generate

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// MigrationMarker is the first line of every generated outbox migration.
const MigrationMarker = "-- outboxify:migration outbox"

// findOutboxMigration returns the name and version of the migration in dir
// that carries the marker.
func findOutboxMigration(dir string) (name, version string, ok bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", "", false
	}
	for _, e := range entries {
		m := versioned.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err == nil && bytes.HasPrefix(b, []byte(MigrationMarker)) {
			return e.Name(), m[1], true
		}
	}
	return "", "", false
}

// nextVersion continues the numbering style of the versioned files in dir:
// 14-digit timestamps (goose, atlas and migrate's default) get the current
// UTC time, later than the highest; a zero-padded sequence gets the next
// number at the same width. An empty directory starts a 6-digit sequence,
// which sorts right for sqlc.
func nextVersion(dir string, now time.Time) string {
	entries, _ := os.ReadDir(dir)
	var versions []string
	for _, e := range entries {
		if m := versioned.FindStringSubmatch(e.Name()); m != nil && !e.IsDir() {
			versions = append(versions, m[1])
		}
	}
	if len(versions) == 0 {
		return "000001"
	}
	highest, width := new(big.Int), 0
	for _, v := range versions {
		n, _ := new(big.Int).SetString(v, 10)
		if n.Cmp(highest) > 0 {
			highest = n
		}
		width = max(width, len(v))
	}
	if width >= 12 { // timestamps
		ts, _ := new(big.Int).SetString(now.UTC().Format("20060102150405"), 10)
		next := new(big.Int).Add(highest, big.NewInt(1))
		if ts.Cmp(next) >= 0 {
			next = ts
		}
		return next.String()
	}
	next := new(big.Int).Add(highest, big.NewInt(1)).String()
	if len(next) < width {
		next = strings.Repeat("0", width-len(next)) + next
	}
	return next
}

// atlasSum computes the content of atlas.sum for the given .sql files of an
// atlas migration directory (name -> content), following atlas's documented
// integrity format: files in lexical order; one running SHA-256 fed each
// file's name then its bytes; each file's line carries the base64 of the
// running sum after it; the first line is "h1:" and the base64 SHA-256 of
// every (name, per-file sum) pair in order. Files marked "atlas:sum ignore"
// are hashed by name only and get no line of their own.
func atlasSum(files map[string][]byte) []byte {
	names := make([]string, 0, len(files))
	for n := range files {
		if strings.HasSuffix(n, ".sql") && !strings.Contains(n, "/") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	running := sha256.New()
	type entry struct{ name, sum string }
	var entries []entry
	for _, n := range names {
		running.Write([]byte(n))
		if ignoredBySum(files[n]) {
			continue
		}
		running.Write(files[n])
		entries = append(entries, entry{n, base64.StdEncoding.EncodeToString(running.Sum(nil))})
	}
	total := sha256.New()
	var lines bytes.Buffer
	for _, e := range entries {
		total.Write([]byte(e.name))
		total.Write([]byte(e.sum))
		fmt.Fprintf(&lines, "%s h1:%s\n", e.name, e.sum)
	}
	return []byte("h1:" + base64.StdEncoding.EncodeToString(total.Sum(nil)) + "\n" + lines.String())
}

// ignoredBySum reports an "atlas:sum ignore" directive on the file's first line.
func ignoredBySum(b []byte) bool {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	_, rest, ok := bytes.Cut(line, []byte("atlas:sum"))
	return ok && bytes.Equal(bytes.TrimSpace(rest), []byte("ignore"))
}
