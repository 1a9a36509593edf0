package generate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/outboxify/outboxify/templates"
)

// Action says what applying a Changeset does to one file.
type Action int

const (
	Unchanged Action = iota // on disk with the generated content
	Create                  // not on disk yet
	Update                  // on disk as outboxify generated it earlier; the new content replaces it
	Conflict                // on disk, differs, and was edited by a person (or never generated): written only with force
	Keep                    // an existing outbox migration that differs: migrations may be applied already, so kept unless force
)

func (a Action) String() string {
	return [...]string{"unchanged", "create", "update", "conflict", "keep"}[a]
}

// Change is one generated file and what applying does with it.
type Change struct {
	Path      string // slash path relative to the module root
	Component string // template component ("migrations", "outbox", ...)
	Action    Action
	Old       []byte // content on disk (nil when absent)
	New       []byte // generated content
	Reason    string // why a conflict or keep
}

// Changeset is the pipeline's result: every generated file as data, compared
// with the disk. Nothing is written until Apply.
type Changeset struct {
	Root    string           // module root (absolute)
	Config  templates.Config // settings after detection, flags and defaults
	Changes []Change         // sorted by path

	manifest     manifest
	atlasSumPath string    // slash path of atlas.sum when it is generated
	settings     *Settings // recorded in the manifest by Apply
}

// ManifestPath is where generated files are tracked, relative to the module root.
const ManifestPath = ".outboxify/generated.json"

type manifest struct {
	// Settings of the last run, so a re-run without flags generates the
	// same thing (flags such as --relay debezium are not detectable).
	Settings *Settings         `json:"settings,omitempty"`
	Files    map[string]string `json:"files"` // slash path -> "sha256:<hex>" of the content as generated
}

// Settings are the choices a run made, recorded in the manifest.
type Settings struct {
	DB            string `json:"db"`
	Driver        string `json:"driver"`
	Broker        string `json:"broker"`
	Migrations    string `json:"migrations"`
	MigrationsDir string `json:"migrations_dir"`
	Relay         string `json:"relay"`
	Notify        string `json:"notify"`
	Out           string `json:"out,omitempty"` // --out, relative to the module root
}

func settingsOf(c templates.Config) *Settings {
	s := &Settings{DB: c.DB, Driver: c.Driver, Broker: c.Broker, Migrations: c.Migrations,
		MigrationsDir: c.MigrationsDir, Relay: c.Relay, Notify: c.Notify}
	if c.DB == "mysql" {
		s.Notify = "" // forced off for MySQL, not a choice to carry to --db postgres
	}
	return s
}

func hashOf(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// Plan runs the generation pipeline for the module holding dir: cfg (from
// Detect and Override) is completed with defaults, the migration version is
// chosen (an existing outbox migration's, else the next in the project's
// style), the templates are rendered and every file is compared with the
// disk and the manifest. It writes nothing.
func Plan(dir string, cfg templates.Config, opts Options) (*Changeset, error) {
	root, module, err := FindModule(dir)
	if err != nil {
		return nil, err
	}
	if err := Validate(cfg); err != nil {
		return nil, err
	}
	if cfg.Module == "" {
		cfg.Module = module
	}
	if cfg.Migrations == "" || cfg.Migrations == "auto" {
		mdir := cfg.MigrationsDir
		if mdir == "" {
			mdir, _ = migrationsDir(root)
			cfg.MigrationsDir = mdir
		}
		cfg.Migrations, _ = migrationFormat(root, mdir)
	}
	if cfg.DB == "mysql" {
		cfg.Notify = "off" // no LISTEN/NOTIFY: the relay polls
	}
	mv := cfg.MigrationVersion // chosen below, not defaulted
	cfg = cfg.WithDefaults()
	cfg.MigrationVersion = mv
	settings := settingsOf(cfg) // before --out moves the directories
	if opts.Out != "" {
		if err := prefixDirs(&cfg, root, opts.Out); err != nil {
			return nil, err
		}
		settings.Out = filepath.ToSlash(opts.Out)
	}
	migDir := filepath.Join(root, filepath.FromSlash(cfg.MigrationsDir))
	if cfg.MigrationVersion == "" {
		if _, v, ok := findOutboxMigration(migDir); ok {
			cfg.MigrationVersion = v
		} else {
			now := time.Now
			if opts.Now != nil {
				now = opts.Now
			}
			cfg.MigrationVersion = nextVersion(migDir, now())
		}
	}
	files, err := templates.Render(cfg, opts.Components...)
	if err != nil {
		return nil, err
	}
	cs := &Changeset{Root: root, Config: cfg, settings: settings}
	if err := cs.readManifest(); err != nil {
		return nil, err
	}
	hasMigrations := false
	for _, f := range files {
		if f.Component == "migrations" {
			hasMigrations = true
		}
		ch, err := cs.compare(f.Path, f.Component, f.Content)
		if err != nil {
			return nil, err
		}
		cs.Changes = append(cs.Changes, ch)
	}
	if hasMigrations && cfg.Migrations == "atlas" {
		cs.atlasSumPath = path.Join(cfg.MigrationsDir, "atlas.sum")
		sum, err := cs.atlasSum(false)
		if err != nil {
			return nil, err
		}
		ch, err := cs.compare(cs.atlasSumPath, "migrations", sum)
		if err != nil {
			return nil, err
		}
		if ch.Action == Conflict { // derived from the directory, never edited by hand
			ch.Action, ch.Reason = Update, ""
		}
		cs.Changes = append(cs.Changes, ch)
	}
	sortChanges(cs.Changes)
	return cs, nil
}

func sortChanges(cs []Change) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].Path < cs[j].Path })
}

// prefixDirs moves every output directory under out (inside the module).
func prefixDirs(c *templates.Config, root, out string) error {
	abs := out
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, out)
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("--out %s is outside the module at %s", out, root)
	}
	rel = filepath.ToSlash(rel)
	for _, p := range []*string{&c.OutboxDir, &c.InboxDir, &c.RelayModuleDir, &c.RelayDir, &c.RelayCmdDir, &c.MigrationsDir, &c.OpsDir} {
		*p = path.Join(rel, *p)
	}
	return nil
}

func (cs *Changeset) abs(p string) string { return filepath.Join(cs.Root, filepath.FromSlash(p)) }

func (cs *Changeset) readManifest() error {
	cs.manifest = manifest{Files: map[string]string{}}
	b, err := os.ReadFile(cs.abs(ManifestPath))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", ManifestPath, err)
	}
	if err := json.Unmarshal(b, &cs.manifest); err != nil {
		return fmt.Errorf("parse %s: %w (delete it to start over; files then count as edited)", ManifestPath, err)
	}
	if cs.manifest.Files == nil {
		cs.manifest.Files = map[string]string{}
	}
	return nil
}

// compare decides the action for one generated file.
func (cs *Changeset) compare(p, comp string, content []byte) (Change, error) {
	ch := Change{Path: p, Component: comp, New: content}
	old, err := os.ReadFile(cs.abs(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		ch.Action = Create
		return ch, nil
	case err != nil:
		return ch, fmt.Errorf("read %s: %w", p, err)
	}
	ch.Old = old
	switch {
	case bytes.Equal(old, content):
		ch.Action = Unchanged
	case comp == "migrations" && bytes.HasPrefix(old, []byte(MigrationMarker)):
		ch.Action = Keep
		ch.Reason = "existing outbox migration (it may be applied already); --force rewrites it"
	case cs.manifest.Files[p] == hashOf(old):
		ch.Action = Update
	case cs.manifest.Files[p] == "":
		ch.Action = Conflict
		ch.Reason = "file exists and was not generated by outboxify"
	default:
		ch.Action = Conflict
		ch.Reason = "edited since outboxify generated it"
	}
	return ch, nil
}

// atlasSum recomputes atlas.sum over the migration directory as it will be
// after applying (with force, kept and conflicting files are replaced too).
func (cs *Changeset) atlasSum(force bool) ([]byte, error) {
	dir := path.Dir(cs.atlasSumPath)
	files := map[string][]byte{}
	entries, err := os.ReadDir(cs.abs(dir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(cs.abs(dir), e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", e.Name(), err)
		}
		files[e.Name()] = b
	}
	for _, ch := range cs.Changes {
		if path.Dir(ch.Path) == dir && strings.HasSuffix(ch.Path, ".sql") && ch.writes(force) {
			files[path.Base(ch.Path)] = ch.New
		}
	}
	return atlasSum(files), nil
}

// writes reports whether Apply(force) writes the file.
func (ch Change) writes(force bool) bool {
	switch ch.Action {
	case Create, Update:
		return true
	case Conflict, Keep:
		return force
	}
	return false
}

// Conflicts returns the changes that need force.
func (cs *Changeset) Conflicts() []Change {
	var out []Change
	for _, ch := range cs.Changes {
		if ch.Action == Conflict {
			out = append(out, ch)
		}
	}
	return out
}

// Pending reports whether Apply(force) would write anything.
func (cs *Changeset) Pending(force bool) bool {
	for _, ch := range cs.Changes {
		if ch.writes(force) {
			return true
		}
	}
	return false
}

// Summary lists each file with its action, one a line.
func (cs *Changeset) Summary() string {
	var b strings.Builder
	for _, ch := range cs.Changes {
		fmt.Fprintf(&b, "%-9s %s", ch.Action, ch.Path)
		if ch.Reason != "" {
			fmt.Fprintf(&b, " (%s)", ch.Reason)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Files returns the generated files as data (path -> content), whatever is
// on disk.
func (cs *Changeset) Files() map[string][]byte {
	out := make(map[string][]byte, len(cs.Changes))
	for _, ch := range cs.Changes {
		out[ch.Path] = ch.New
	}
	return out
}
