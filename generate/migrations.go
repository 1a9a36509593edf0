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
	"strconv"
	"strings"
	"time"
)

// MigrationMarker is the first line of every generated outbox migration.
const MigrationMarker = "-- outboxify:migration outbox"

// UpgradeMarker starts the first line of a generated upgrade migration of
// the outbox schema; the schema version it upgrades to follows.
const UpgradeMarker = "-- outboxify:migration outbox-upgrade "

// SchemaMarker starts the header line of a generated migration that records
// the outbox schema version it leaves (an outbox migration without one was
// generated before schema versions: version 1).
const SchemaMarker = "-- outboxify:schema "

// outboxMigrations is what a migration directory holds of outboxify's.
type outboxMigrations struct {
	name, version string         // the outbox migration's file and version prefix ("" when none)
	schema        int            // the schema version it creates
	upgrades      map[int]string // schema version -> version prefix of the upgrade migration to it
}

// current is the schema version the migrations leave the database at.
func (m outboxMigrations) current() int {
	v := m.schema
	for to := range m.upgrades {
		v = max(v, to)
	}
	return v
}

// findOutboxMigrations reads the versioned files of dir for outboxify's
// markers: the outbox migration (first line exactly MigrationMarker) and
// the upgrade migrations (first line UpgradeMarker and a version).
func findOutboxMigrations(dir string) outboxMigrations {
	out := outboxMigrations{upgrades: map[int]string{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		m := versioned.FindStringSubmatch(e.Name())
		if e.IsDir() || m == nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		first, _, _ := bytes.Cut(b, []byte("\n"))
		first = bytes.TrimRight(first, "\r")
		switch {
		case string(first) == MigrationMarker:
			if out.name == "" {
				out.name, out.version, out.schema = e.Name(), m[1], recordedSchema(b)
			}
		case bytes.HasPrefix(first, []byte(UpgradeMarker)):
			to, err := strconv.Atoi(strings.TrimSpace(string(first[len(UpgradeMarker):])))
			if err == nil && to > 1 {
				if _, seen := out.upgrades[to]; !seen {
					out.upgrades[to] = m[1]
				}
			}
		}
	}
	return out
}

// recordedSchema reads the schema line from a migration's leading comment
// lines; none means version 1.
func recordedSchema(b []byte) int {
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if !strings.HasPrefix(line, "--") {
			break
		}
		if rest, ok := strings.CutPrefix(line, SchemaMarker); ok {
			if v, err := strconv.Atoi(strings.TrimSpace(rest)); err == nil && v > 0 {
				return v
			}
		}
	}
	return 1
}

// isOutboxMigration reports whether b is a migration outboxify generated
// (the outbox migration or an upgrade of its schema).
func isOutboxMigration(b []byte) bool { return bytes.HasPrefix(b, []byte(MigrationMarker)) }

// nextVersion continues the numbering style of the versioned files in dir:
// 14-digit timestamps (goose, atlas and migrate's default) get the current
// UTC time, later than the highest; a zero-padded sequence gets the next
// number at the same width. An empty directory starts a 6-digit sequence,
// which sorts right for sqlc. also are versions this run has chosen already
// (counted as if their files were in dir).
func nextVersion(dir string, now time.Time, also ...string) string {
	entries, _ := os.ReadDir(dir)
	versions := append([]string(nil), also...)
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
