package generate

import (
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/outboxify/outboxify/templates"
)

// schema1Fixture copies testdata/schema1/<name> (a module holding the
// outbox migration as outboxify generated it before schema versions, with
// its manifest) into a temp dir.
func schema1Fixture(t *testing.T, name string) string {
	t.Helper()
	return writeTree(t, snapshot(t, filepath.Join("testdata", "schema1", name)))
}

func planMigrations(t *testing.T, dir string) *Changeset {
	t.Helper()
	det, _, err := Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := Plan(dir, det, Options{Now: fixedNow, Components: []string{"migrations"}})
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestSchemaUpgrade: a module whose outbox migration is at schema 1 gets
// one new upgrade migration per schema version step that changes its
// database (MySQL has none to schema 4) in its tool's format
// and numbering, each holding only its upgrade; the schema-1 migration renders byte for byte as it was
// (unchanged, not kept aside), every other file stays as it was, atlas.sum
// covers the new file, and a second run writes nothing.
func TestSchemaUpgrade(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		created []string // new migration files, one upgrade per schema version step
		up      string   // in the upgrade to schema 2 (the one to 3 adds blocked_at, the one to 4 the idle check)
	}{
		{"postgres_sql", []string{"000002_outbox_schema2.down.sql", "000002_outbox_schema2.up.sql", "000003_outbox_schema3.down.sql", "000003_outbox_schema3.up.sql", "000004_outbox_schema4.down.sql", "000004_outbox_schema4.up.sql"}, "WHERE published_at IS NULL AND dead_at IS NULL;"},
		{"postgres_goose", []string{"20261202150000_outbox_schema2.sql", "20261202150001_outbox_schema3.sql", "20261202150002_outbox_schema4.sql"}, "WHERE published_at IS NULL AND dead_at IS NULL;"},
		{"postgres_migrate", []string{"000003_outbox_schema2.down.sql", "000003_outbox_schema2.up.sql", "000004_outbox_schema3.down.sql", "000004_outbox_schema3.up.sql", "000005_outbox_schema4.down.sql", "000005_outbox_schema4.up.sql"}, "WHERE published_at IS NULL AND dead_at IS NULL;"},
		{"postgres_atlas", []string{"20261202150000_outbox_schema2.sql", "20261202150001_outbox_schema3.sql", "20261202150002_outbox_schema4.sql"}, "WHERE published_at IS NULL AND dead_at IS NULL;"},
		{"mysql_sql", []string{"000002_outbox_schema2.down.sql", "000002_outbox_schema2.up.sql", "000003_outbox_schema3.down.sql", "000003_outbox_schema3.up.sql"}, "(published_at, dead_at, seq)"},
		{"mysql_goose", []string{"20261202150000_outbox_schema2.sql", "20261202150001_outbox_schema3.sql"}, "(published_at, dead_at, seq)"},
		{"mysql_migrate", []string{"000003_outbox_schema2.down.sql", "000003_outbox_schema2.up.sql", "000004_outbox_schema3.down.sql", "000004_outbox_schema3.up.sql"}, "(published_at, dead_at, seq)"},
		{"mysql_atlas", []string{"20261202150000_outbox_schema2.sql", "20261202150001_outbox_schema3.sql"}, "(published_at, dead_at, seq)"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			dir := schema1Fixture(t, tc.fixture)
			before := snapshot(t, dir)
			format := strings.SplitN(tc.fixture, "_", 2)[1]

			cs := planMigrations(t, dir)
			var created []string
			for _, ch := range cs.Changes {
				switch {
				case ch.Action == Create:
					created = append(created, path.Base(ch.Path))
				case ch.Path == "migrations/atlas.sum" && ch.Action == Update:
				case ch.Action != Unchanged:
					t.Errorf("%s: %s, want unchanged (the schema-1 migration must render as it was)", ch.Path, ch.Action)
				}
			}
			sort.Strings(created)
			if strings.Join(created, " ") != strings.Join(tc.created, " ") {
				t.Fatalf("created %v, want %v\n%s", created, tc.created, cs.Summary())
			}
			if err := cs.Apply(false); err != nil {
				t.Fatal(err)
			}
			after := snapshot(t, dir)
			for p, c := range before {
				if p == "migrations/atlas.sum" || p == ManifestPath {
					continue
				}
				if after[p] != c {
					t.Errorf("%s changed", p)
				}
			}
			for _, name := range tc.created {
				body := after["migrations/"+name]
				step := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name[strings.Index(name, "_outbox_schema")+len("_outbox_schema"):], ".sql"), ".up"), ".down")
				if !strings.HasPrefix(body, UpgradeMarker+step+"\n") {
					t.Errorf("%s does not start with the upgrade marker of step %s:\n%s", name, step, body)
				}
				want := tc.up
				switch step {
				case "3":
					want = "blocked_at"
				case "4":
					want = "IF NOT pg_try_advisory_xact_lock_shared("
				}
				if strings.Contains(body, "CREATE TABLE") {
					t.Errorf("%s holds more than the upgrade:\n%s", name, body)
				}
				isDown := strings.HasSuffix(name, ".down.sql")
				if !isDown && !strings.Contains(body, want) {
					t.Errorf("%s lacks %q:\n%s", name, want, body)
				}
				if format == "goose" && (!strings.Contains(body, "-- +goose Up\n") || !strings.Contains(body, "-- +goose Down\n")) {
					t.Errorf("%s: goose annotations missing:\n%s", name, body)
				}
			}
			if format == "atlas" {
				files := map[string][]byte{}
				for p, c := range after {
					if d, f := path.Split(p); d == "migrations/" {
						files[f] = []byte(c)
					}
				}
				sum := string(files["atlas.sum"])
				if want := string(atlasSum(files)); sum != want || !strings.Contains(sum, "\n"+tc.created[0]+" h1:") {
					t.Fatalf("atlas.sum:\n%s\nwant:\n%s", sum, want)
				}
				// Files before the new one keep their lines: atlas's running
				// hash only changes from the new file on.
				for _, line := range strings.Split(before["migrations/atlas.sum"], "\n")[1:] {
					if line != "" && !strings.Contains(sum, line+"\n") {
						t.Errorf("atlas.sum lost the line %q", line)
					}
				}
			}
			// MySQL has no step to schema 4 (nothing changes there).
			wantSchema := templates.LatestSchema
			if strings.HasPrefix(tc.fixture, "mysql") {
				wantSchema = 3
			}
			if got := findOutboxMigrations(filepath.Join(dir, "migrations")).current(); got != wantSchema {
				t.Errorf("after the upgrade the directory reads as schema %d, want %d", got, wantSchema)
			}

			// A second run changes nothing.
			cs = planMigrations(t, dir)
			if cs.Pending(false) {
				t.Fatalf("second run would write:\n%s", cs.Summary())
			}
			if err := cs.Apply(false); err != nil {
				t.Fatal(err)
			}
			sameTree(t, after, snapshot(t, dir))
		})
	}
}

// A fresh module gets the latest schema in its one outbox migration, which
// records it, and no upgrade migration.
func TestFreshModuleGetsLatestSchema(t *testing.T) {
	dir := writeTree(t, map[string]string{"go.mod": "module example.com/svc\n\ngo 1.26\n"})
	cs := planMigrations(t, dir)
	for _, ch := range cs.Changes {
		if strings.Contains(ch.Path, "_outbox_schema") {
			t.Errorf("fresh module gets upgrade migration %s", ch.Path)
		}
		if strings.HasSuffix(ch.Path, "_outbox.up.sql") {
			if got := recordedSchema(ch.New); got != templates.LatestSchema {
				t.Errorf("%s records schema %d, want %d", ch.Path, got, templates.LatestSchema)
			}
			if !strings.Contains(string(ch.New), "WHERE published_at IS NULL AND dead_at IS NULL AND blocked_at IS NULL;") {
				t.Errorf("%s: the claim index still holds dead letters or blocked rows", ch.Path)
			}
		}
	}
}

// Migrations from a newer outboxify (a schema this one does not know) stop
// the run instead of being rendered as something else.
func TestNewerSchemaRefused(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"go.mod":                         "module example.com/svc\n\ngo 1.26\n",
		"migrations/000001_outbox.sql":   MigrationMarker + "\n" + SchemaMarker + "4\nSELECT 1;\n",
		"migrations/000002_outbox_x.sql": UpgradeMarker + "5\nSELECT 1;\n",
	})
	det, _, err := Detect(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Plan(dir, det, Options{Now: fixedNow, Components: []string{"migrations"}})
	if err == nil || !strings.Contains(err.Error(), "schema 5") {
		t.Fatalf("err = %v, want a refusal naming schema 5", err)
	}
}
