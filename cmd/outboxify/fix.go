package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/mod/modfile"
	"golang.org/x/mod/semver"
	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/catalog"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/generate"
	"github.com/outboxify/outboxify/report"
	"github.com/outboxify/outboxify/rewrite"
	"github.com/outboxify/outboxify/scan"
)

func init() { register(newFixCmd) }

// rolloutNote is the order a rewritten service is deployed in: the
// rewritten code only inserts outbox rows, which nothing publishes until
// the relay runs.
const rolloutNote = "apply the outbox migration and start the relay before deploying the rewritten service: until the relay runs, the rewritten sites' events wait in the outbox table"

// fixesFile is where fix records what it replaced (read by `report`).
const fixesFile = ".outboxify/fixes.json"

// fixRecord is the fixes.json contract (paths module-relative, slash).
type fixRecord struct {
	Replaced []fixReplaced `json:"replaced"`
	Manual   []fixManual   `json:"manual"`
}

type fixLoc struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

type fixReplaced struct {
	Rule      string   `json:"rule"`
	Call      string   `json:"call"`
	Strategy  string   `json:"strategy,omitempty"`
	Before    fixLoc   `json:"before"`
	After     fixLoc   `json:"after"`
	Behaviour []string `json:"behaviour,omitempty"`
	// Notes: what the rewrite left to tidy (a parameter now unused).
	Notes []string `json:"notes,omitempty"`
}

type fixManual struct {
	Rule   string `json:"rule"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	Advice string `json:"advice"`
}

func newFixCmd() *cobra.Command {
	var (
		dir          string
		showDiff     bool
		outboxPkg    string
		noGenerate   bool
		allowUpgrade bool
		output       string
		quiet        bool
		gen          generate.Flags
	)
	cmd := &cobra.Command{
		Use:   "fix [-C dir] [--diff] [--outbox-pkg importpath] [--no-generate] [--format text|json] [packages]",
		Short: "Rewrite dual writes into outbox inserts on the same transaction",
		Long: `fix loads the packages (default ./...), finds the dual writes like scan does,
and rewrites each into an outbox insert on the transaction that does the
write: on the existing transaction, before Commit; or on a transaction it
opens on the write's handle. What cannot be rewritten safely is left as it
is and reported with the reason and what to do.

By default fix also runs the generate pipeline with the detected settings
(migration, outbox writer, relay, inbox, ops files; the generate flags
apply); --no-generate only creates the outbox writer package when it is
missing, so the rewritten code compiles. --diff prints a unified diff (in
json, a "diff" field beside what would be replaced and generated) and
writes nothing. Files are written atomically; a rewritten file that would
not compile is left untouched. What was replaced is recorded in
.outboxify/fixes.json for outboxify report.

Like generate, fix ends with the migration's output contract (what
outboxify report prints) for the module as fix left it: after the list
of what was replaced and left in text, as the "report" field next to
fix's own fields in json. The report informs; it does not change fix's
exit status. --diff writes nothing, so it prints no report.

Exit status: 0 everything fixed, 1 findings left for a person, 2 the
packages did not load or type-check (nothing written), or bad flags.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if output != "text" && output != "json" {
				return withCode(exitError, fmt.Errorf("--format %q: want text or json", output))
			}
			if err := gen.Validate(); err != nil {
				return withCode(exitError, err)
			}
			return runFix(cmd.OutOrStdout(), cmd.ErrOrStderr(), fixParams{
				dir: dir, patterns: args, diff: showDiff, outboxPkg: outboxPkg,
				noGenerate: noGenerate, json: output == "json", gen: gen, allowUpgrade: allowUpgrade,
				progress: newProgress(cmd.ErrOrStderr(), quiet),
			})
		},
	}
	cmd.Flags().StringVarP(&dir, "dir", "C", ".", "run in `dir` (module or subdirectory); paths are printed relative to it")
	cmd.Flags().BoolVar(&showDiff, "diff", false, "print a unified diff and write nothing")
	cmd.Flags().StringVar(&outboxPkg, "outbox-pkg", "", "import `path` of the outbox writer package (default <module>/internal/outbox)")
	cmd.Flags().BoolVar(&noGenerate, "no-generate", false, "skip generation (only a missing outbox writer package is created)")
	cmd.Flags().BoolVar(&allowUpgrade, "allow-upgrade", false, "let the generated code's requirements raise the module's go line or upgrade modules it already requires")
	cmd.Flags().StringVar(&output, "format", "text", "output `format`: text or json")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress on stderr (it is shown only on a terminal)")
	gen.Register(cmd.Flags())
	return cmd
}

type fixParams struct {
	dir          string
	patterns     []string
	diff         bool
	outboxPkg    string
	noGenerate   bool
	json         bool
	allowUpgrade bool
	gen          generate.Flags

	// A second pass rewrites what the first left because another strategy
	// edited the same file (rewrite.ReasonAgain); prior is the first pass.
	pass           int
	prior          *fixRecord
	priorGenerated []string
	// loaded is the module as the first pass left it, loaded and scanned
	// by its verification: the second pass starts from it
	loaded   *scan.Program
	progress *progress // nil: no progress (not a terminal, --quiet)
}

func runFix(stdout, stderr io.Writer, p fixParams) error {
	// go.mod and go.sum as the user left them: loading and verifying with
	// GOFLAGS=-mod=mod may already touch them, and a refused fix puts
	// them back.
	var orig modFiles
	if root, _, err := generate.FindModule(p.dir); err == nil {
		orig = readModFiles(root)
	}
	prog := p.loaded
	if prog == nil {
		var err error
		if prog, err = scan.Load(p.dir, p.patterns, scan.Options{Progress: p.progress.fn()}); err != nil {
			return withCode(exitError, err)
		}
	}
	if prog.WorkspaceOff != "" {
		fmt.Fprintf(stderr, "note: %s\n", prog.WorkspaceOff)
	}
	root, module, err := generate.FindModule(prog.Dir)
	if err != nil {
		return withCode(exitError, err)
	}

	// Generation: the whole pipeline, or just a missing writer package.
	cfg, det, err := generate.Detect(prog.Dir)
	if err != nil {
		return withCode(exitError, fmt.Errorf("detect settings: %w", err))
	}
	cfg = generate.Override(cfg, p.gen.Config())
	// What fix generates: the writer, and unless --no-generate the
	// migration, the relay module and ops files. The inbox (consumer side)
	// is generate's: fix replaces publishes.
	opts := generate.Options{Out: p.gen.Out, Components: fixComponents}
	if p.noGenerate {
		opts.Components = []string{"outbox"}
	} else if why := det.NoBroker(cfg, p.gen.Broker); why != "" {
		// As generate refuses to: a relay for the default broker would
		// publish where the service does not. The writer and its table are
		// still what a person's edit needs.
		opts.Components = []string{"outbox", "migrations"}
		fmt.Fprintf(stderr, "outboxify: %s: no relay is generated; pass --broker %s to generate one\n", why, strings.Join(generate.Brokers, "|"))
	}
	cs, err := generate.Plan(prog.Dir, cfg, opts)
	if err != nil {
		return withCode(exitError, fmt.Errorf("generate: %w", err))
	}
	outboxPkg := p.outboxPkg
	if outboxPkg == "" {
		outboxPkg = path.Join(module, cs.Config.OutboxDir)
	}
	if p.noGenerate && (p.outboxPkg != "" || hasGoFiles(filepath.Join(root, filepath.FromSlash(cs.Config.OutboxDir)))) {
		cs = nil // the writer exists (or is the user's own): generate nothing
	}
	// SQL scaffolding only for dual writes whose store of record is SQL: a
	// module that writes only to DynamoDB, MongoDB, Cassandra, ... gets its
	// findings with that store's advice and nothing written.
	if cs != nil && !hasSQLFinding(prog.Findings) {
		if len(prog.Findings) > 0 {
			fmt.Fprintf(stderr, "outboxify: no dual write here has a SQL store of record (%s): no SQL migration, writer or relay is generated; the findings say what to do for that store\n", strings.Join(findingStores(prog.Findings), ", "))
		}
		cs = nil
	}
	overlay := map[string][]byte{}
	if cs != nil {
		for _, ch := range cs.Changes {
			if ch.Action == generate.Create || ch.Action == generate.Update {
				overlay[filepath.Join(root, filepath.FromSlash(ch.Path))] = ch.New
			}
		}
	}

	skip, err := generatedFiles(root)
	if err != nil {
		return withCode(exitError, err)
	}
	if cs != nil {
		for _, ch := range cs.Changes {
			skip[filepath.Join(root, filepath.FromSlash(ch.Path))] = true
		}
	}
	ropts := rewrite.Options{OutboxPkg: outboxPkg, Skip: skip, DB: cfg.DB}
	if cs != nil {
		ropts.Writers = map[string]string{}
		ropts.Accessors = map[string]bool{}
		for _, w := range cs.Config.Writers() {
			ropts.Writers[w.Driver] = w.Func
			switch w.Driver {
			case "database/sql":
				ropts.Accessors["SQL"], ropts.Accessors["BeginSQL"] = true, true
			case "gorm":
				ropts.Accessors["SQL"], ropts.Accessors["Gorm"], ropts.Accessors["BeginSQL"] = true, true, true
			case "pgx":
				ropts.Accessors["Pgx"] = cs.Config.PgxPool
			case "pgx4":
				ropts.Accessors["PgxV4"] = cs.Config.PgxV4Pool
			case "sqlx":
				ropts.Accessors["Sqlx"] = true
			}
		}
	}
	res, err := rewrite.Fix(prog.Packages, prog.Findings, ropts)
	if err != nil {
		return withCode(exitError, err)
	}
	p.progress.stage(fmt.Sprintf("rewrote %d file(s) in memory (%d finding(s) left for a person); checking they build ...", len(res.Files), len(res.Manual)))
	// The change is type-checked on a load of the whole module with the
	// rewritten and generated files laid over the files on disk, scanned
	// like the first load: when fix writes exactly that, it is the module
	// as fix leaves it, and the closing report (or a second pass) reads it
	// instead of loading the module again.
	var after *scan.Program
	var verifiedMod modFiles
	if len(res.Files) > 0 {
		var checked int // files in the last load's overlay
		err := rewrite.VerifyWith(res, overlay, func(ov map[string][]byte, paths []string) ([]*packages.Package, error) {
			after, checked = nil, len(ov)
			return verifyLoad(p, prog, root, ov, paths, &after)
		})
		if err != nil {
			return withCode(exitError, err)
		}
		if checked != len(overlay)+len(res.Files) {
			after = nil // the last load still had files Verify then dropped
		}
		verifiedMod = readModFiles(root)
	}

	// What fix is about to write is built as a whole first (the module
	// with the change as an overlay; the relay module apart): a change
	// that adds a build error is not written, and --diff says so too.
	genNow := cs != nil && cs.Pending(false) && (len(res.Files) > 0 || !p.noGenerate)
	gcs := cs
	if !genNow {
		gcs = nil
	}
	chg, err := planChange(root, gcs, res)
	if err != nil {
		return withCode(exitError, err)
	}
	if err := chg.baseline(); err != nil {
		return withCode(exitError, err)
	}

	if p.diff {
		res.UnmovedLines() // nothing is written: lines as they are on disk
		var diff strings.Builder
		if err := rewrite.Diff(&diff, prog.Dir, res); err != nil {
			return withCode(exitError, err)
		}
		if cs != nil {
			diff.WriteString(generate.Diff(cs))
		}
		if len(chg.vendorGaps) > 0 {
			fmt.Fprintf(&diff, "go mod vendor (vendor/ lacks %s, which the generated code imports)\n", strings.Join(chg.vendorGaps, ", "))
		}
		if p.json {
			// one document: what would be replaced and generated, and
			// the diff that does it
			if err := writeDiffJSON(stdout, root, res, cs, chg.vendorGaps, diff.String()); err != nil {
				return withCode(exitError, err)
			}
		} else {
			fmt.Fprint(stdout, diff.String())
			rewrite.Text(stderr, prog.Dir, res)
		}
		if err := chg.check(stderr); err != nil {
			return withCode(exitError, fmt.Errorf("this diff is not safe to apply: %w", err))
		}
		p.progress.done("fix --diff: %d publish(es) would be replaced in %d file(s), %d finding(s) left for a person", len(res.Replaced()), len(res.Files), len(res.Manual))
		if len(res.Manual) > 0 {
			return withCode(exitFindings, nil)
		}
		return nil
	}

	undo := snapshotFix(root, orig, cs, res)
	var generated, removed []string
	if genNow {
		if len(cs.Conflicts()) == 0 {
			if err := requireImports(root, cs, orig, p.allowUpgrade, stderr); err != nil {
				return withCode(exitError, err)
			}
		}
		for _, ch := range cs.Changes {
			switch ch.Action {
			case generate.Create, generate.Update:
				generated = append(generated, ch.Path)
			case generate.Remove:
				removed = append(removed, ch.Path)
			}
		}
	}
	if err := chg.check(stderr); err != nil {
		undo.restore() // go.mod and go.sum, if --allow-upgrade changed them
		return withCode(exitError, fmt.Errorf("fix changed nothing (go.mod, go.sum and every file are as they were): %w", err))
	}
	if genNow {
		if err := cs.Apply(false); err != nil {
			undo.restore()
			return withCode(exitError, fmt.Errorf("generate: %w (nothing written)", err))
		}
	}
	writeErrs := rewrite.WriteFiles(res)
	for _, err := range writeErrs {
		fmt.Fprintln(stderr, "outboxify:", err)
	}
	p.progress.stage(fmt.Sprintf("wrote %d file(s), generated %d", len(res.Files), len(generated)))
	res.MoveManualLines()
	rec := record(root, res)
	if err := saveFixes(root, rec); err != nil {
		undo.restore()
		return withCode(exitError, err)
	}
	if len(chg.vendorGaps) > 0 {
		if err := revendor(root, chg.before); err != nil {
			undo.restore()
			return withCode(exitError, fmt.Errorf("fix changed nothing (go.mod, go.sum, vendor/ and every file are as they were): %w", err))
		}
		fmt.Fprintf(stderr, "go mod vendor (vendor/ lacked %s)\n", strings.Join(chg.vendorGaps, ", "))
	}

	// Is a program loaded here the module as fix left it? The scan's, when
	// nothing was written; the verification's, when what was written is
	// its overlay (no generated file removed or left unwritten, go.mod,
	// go.sum and vendor/ as they were then, every file written).
	var current *scan.Program
	switch {
	case len(res.Files) == 0 && len(generated) == 0 && len(removed) == 0:
		current = prog
	case after != nil && len(writeErrs) == 0 && len(removed) == 0 && len(chg.vendorGaps) == 0 && (genNow || len(overlay) == 0) && readModFiles(root).equal(verifiedMod):
		current = after
	}

	if p.pass == 0 && !p.diff && res.Again() && len(res.Files) > 0 {
		// the unit-of-work rewrite left a finding whose functions another
		// strategy edited in this run (rewrite.ReasonAgain; files both
		// edit in other functions are rewritten in one pass): load the
		// rewritten module and go on, once
		p2 := p
		p2.pass, p2.prior, p2.priorGenerated, p2.loaded = 1, &rec, generated, current
		return runFix(stdout, stderr, p2)
	}
	if p.prior != nil {
		rec.Replaced = append(append([]fixReplaced(nil), p.prior.Replaced...), rec.Replaced...)
		generated = append(append([]string(nil), p.priorGenerated...), generated...)
		if !p.json {
			fmt.Fprintf(stdout, "first pass: replaced %d publish(es) (see .outboxify/fixes.json)\n", len(p.prior.Replaced))
		}
	}

	// The contract of the module as fix left it (same packages). A CI job
	// reads one JSON document, so in json it is a field of fix's output.
	rep, err := report.Build(p.dir, report.Options{Patterns: p.patterns, Program: current})
	if err != nil {
		fmt.Fprintf(stderr, "outboxify: report: %v\n", err)
	}
	if p.json {
		out := struct {
			fixRecord
			Generated []string        `json:"generated"`
			Removed   []string        `json:"removed"`
			Rollout   string          `json:"rollout,omitempty"`
			Report    json.RawMessage `json:"report"`
		}{rec, generated, removed, "", json.RawMessage("null")}
		if len(res.Replaced()) > 0 {
			out.Rollout = rolloutNote
		}
		if out.Generated == nil {
			out.Generated = []string{}
		}
		if out.Removed == nil {
			out.Removed = []string{}
		}
		if rep != nil {
			b, err := rep.JSON()
			if err != nil {
				return withCode(exitError, fmt.Errorf("report: %w", err))
			}
			out.Report = b
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return withCode(exitError, err)
		}
	} else {
		for _, g := range generated {
			fmt.Fprintf(stdout, "generated %s\n", rewrite.DisplayPath(prog.Dir, filepath.Join(root, filepath.FromSlash(g))))
		}
		for _, r := range removed {
			fmt.Fprintf(stdout, "removed %s (an earlier outboxify's layout)\n", rewrite.DisplayPath(prog.Dir, filepath.Join(root, filepath.FromSlash(r))))
		}
		rewrite.Text(stdout, prog.Dir, res)
		if len(res.Replaced()) > 0 {
			fmt.Fprintf(stdout, "rollout: %s\n", rolloutNote)
		}
		if rep != nil {
			fmt.Fprintf(stdout, "\n%s", rep.Markdown())
		}
	}
	p.progress.done("fix: replaced %d publish(es) in %d file(s), %d finding(s) left for a person", len(rec.Replaced), len(res.Files), len(res.Manual))
	if len(res.Manual) > 0 {
		return withCode(exitFindings, nil)
	}
	return nil
}

// requireImports adds to go.mod the modules that generated Go files import
// and the module does not require yet, at the versions outboxify itself was
// built with (the versions its templates are compiled against in its tests),
// so the generated code builds right away.
func requireImports(root string, cs *generate.Changeset, orig modFiles, allowUpgrade bool, stderr io.Writer) error {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return fmt.Errorf("read go.mod: %w", err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return fmt.Errorf("parse go.mod: %w", err)
	}
	module := mf.Module.Mod.Path
	sum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
	required := map[string]string{} // module path -> version, for required modules whose code go.sum vouches for
	for _, r := range mf.Require {
		if bytes.Contains(sum, []byte(r.Mod.Path+" "+r.Mod.Version+" h1:")) || hasVendor(root) {
			required[r.Mod.Path] = r.Mod.Version
		}
	}
	covered := func(p string) (mod, version string, ok bool) {
		if p == module || strings.HasPrefix(p, module+"/") {
			return module, "", true
		}
		best := ""
		for m := range required {
			if (p == m || strings.HasPrefix(p, m+"/")) && len(m) > len(best) {
				best = m
			}
		}
		return best, required[best], best != ""
	}
	versions := map[string]string{}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Replace != nil {
				d = d.Replace
			}
			versions[d.Path] = d.Version
		}
	}
	seen := map[string]bool{}
	var get, below []string
	imports, err := cs.ServiceImports() // the relay module pins its own requirements
	if err != nil {
		return err
	}
	for _, p := range imports {
		if m, v, ok := covered(p); ok {
			if floor := generate.Floor(m); floor != "" && v != "" && semver.Compare(v, floor) < 0 && !seen[m] {
				seen[m] = true
				below = append(below, fmt.Sprintf("%s %s (the generated code needs %s or newer)", m, v, floor))
				arg := m + "@" + floor
				get = append(get, arg)
			}
			continue
		}
		arg := p
		best := ""
		for m := range versions {
			if (p == m || strings.HasPrefix(p, m+"/")) && len(m) > len(best) {
				best = m
			}
		}
		if best != "" {
			arg = best + "@" + versions[best]
		}
		if !seen[arg] {
			seen[arg] = true
			get = append(get, arg)
		}
	}
	if len(get) > 0 && !allowUpgrade {
		// The service's go.mod and go.sum never change without
		// --allow-upgrade: a new requirement or a raised version can move
		// the go line and break code outboxify never touched.
		sort.Strings(get)
		why := "it does not require them (with their go.sum hashes)"
		if len(below) > 0 {
			why = "pinned below the floor: " + strings.Join(below, "; ")
		}
		return fmt.Errorf("the generated code needs %s, and this module's go.mod does not provide it (%s); nothing is written and go.mod is unchanged (add them yourself, or rerun with --allow-upgrade)",
			strings.Join(get, " "), why)
	}
	if len(get) == 0 {
		return nil
	}
	sort.Strings(get)
	cmd := exec.Command("go", append([]string{"get"}, get...)...)
	cmd.Dir = root
	if orig.mod == nil {
		orig = modFiles{mod: data}
		orig.sum, _ = os.ReadFile(filepath.Join(root, "go.sum"))
	}
	restore := func() { orig.restore(root) }
	out, err := cmd.CombinedOutput()
	if err != nil {
		restore()
		return fmt.Errorf("add the generated code's requirements (go get %s): %w\n%s", strings.Join(get, " "), err, out)
	}
	fmt.Fprintf(stderr, "go get %s\n", strings.Join(get, " "))
	return nil
}

// generatedFiles lists the files outboxify generated earlier (the generate
// manifest), which fix never edits: the relay publishes by design.
func generatedFiles(root string) (map[string]bool, error) {
	out := map[string]bool{}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(generate.ManifestPath)))
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", generate.ManifestPath, err)
	}
	var m struct {
		Files map[string]string `json:"files"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("read %s: %w", generate.ManifestPath, err)
	}
	for p := range m.Files {
		out[filepath.Join(root, filepath.FromSlash(p))] = true
	}
	return out, nil
}

func hasGoFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			return true
		}
	}
	return false
}

// record converts a result to the fixes.json shape (module-relative paths).
func record(root string, res *rewrite.Result) fixRecord {
	rec := fixRecord{Replaced: []fixReplaced{}, Manual: []fixManual{}}
	for _, r := range res.Replaced() {
		rec.Replaced = append(rec.Replaced, fixReplaced{
			Rule: r.Rule, Call: r.Call, Strategy: r.Strategy,
			Before:    fixLoc{rewrite.DisplayPath(root, r.Before.File), r.Before.Line},
			After:     fixLoc{rewrite.DisplayPath(root, r.After.File), r.After.Line},
			Behaviour: r.Behaviour,
			Notes:     r.Notes,
		})
	}
	for _, m := range rewrite.SortedManual(res) {
		rec.Manual = append(rec.Manual, fixManual{
			Rule: m.Rule, File: rewrite.DisplayPath(root, m.File), Line: m.Line, Reason: m.Reason, Advice: m.Advice,
		})
	}
	return rec
}

// saveFixes records this run in .outboxify/fixes.json: replacements add to
// those of earlier runs (a second run replaces nothing but must not erase
// the history), manual findings are the current ones.
func saveFixes(root string, rec fixRecord) error {
	name := filepath.Join(root, filepath.FromSlash(fixesFile))
	var old fixRecord
	b, err := os.ReadFile(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("read %s: %w", fixesFile, err)
	default:
		if err := json.Unmarshal(b, &old); err != nil {
			return fmt.Errorf("read %s: %w", fixesFile, err)
		}
	}
	merged := fixRecord{Replaced: old.Replaced, Manual: rec.Manual}
	// a replacement is the same one when all but its notes are
	key := func(r fixReplaced) fixReplaced { r.Behaviour, r.Notes = nil, nil; return r }
	seen := map[string]bool{}
	for _, r := range merged.Replaced {
		seen[fmt.Sprint(key(r))] = true
	}
	for _, r := range rec.Replaced {
		if !seen[fmt.Sprint(key(r))] {
			merged.Replaced = append(merged.Replaced, r)
		}
	}
	if merged.Replaced == nil {
		if b == nil {
			return nil // nothing replaced now or before: a run that rewrote nothing writes nothing
		}
		merged.Replaced = []fixReplaced{}
	}
	out, err := json.MarshalIndent(merged, "", "  ")
	if err != nil {
		return err
	}
	out = append(out, '\n')
	if bytes.Equal(out, b) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", fixesFile, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".fixes-*.json")
	if err != nil {
		return fmt.Errorf("write %s: %w", fixesFile, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", fixesFile, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", fixesFile, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", fixesFile, err)
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return fmt.Errorf("write %s: %w", fixesFile, err)
	}
	return nil
}

// writeFileAtomic replaces a file by renaming a complete temporary copy
// over it.
func writeFileAtomic(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".outboxify-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// modFiles are a module's go.mod and go.sum contents (sum nil: no go.sum).
type modFiles struct{ mod, sum []byte }

func (m modFiles) equal(o modFiles) bool {
	return bytes.Equal(m.mod, o.mod) && bytes.Equal(m.sum, o.sum)
}

// verifyLoad type-checks the change for rewrite.VerifyWith. The loaded
// program is checked again in memory with the overlay (scan.Recheck: only
// the edited and added files are parsed, only their packages and those
// importing them are type-checked); it sets *after to that program,
// analysed, when no package has an error: the module fix leaves, for the
// closing report. Where the change needs a real load (a new import the
// program did not load, cgo, build tags), it loads the patterns with the
// overlay, scanned as scan does; otherwise, or when nothing type-checks,
// it type-checks the edited packages alone as rewrite.Verify does.
func verifyLoad(p fixParams, loaded *scan.Program, root string, ov map[string][]byte, paths []string, after **scan.Program) ([]*packages.Package, error) {
	prog, checked, err := loaded.Recheck(ov)
	switch {
	case err == nil:
		*after = prog
		return checked, nil
	case !errors.Is(err, scan.ErrNoRecheck):
		return nil, err
	}
	if os.Getenv("OUTBOXIFY_DEBUG_REWRITE") != "" {
		fmt.Fprintf(os.Stderr, "=== loading again: %v\n", err)
	}
	prog, err = scan.Load(p.dir, p.patterns, scan.Options{Overlay: ov, Partial: true})
	if err == nil {
		roots := map[string]bool{}
		pkgs := append(append([]*packages.Package(nil), prog.Packages...), prog.Errored...)
		for _, pk := range pkgs {
			roots[pk.PkgPath] = true
		}
		all := true
		for _, path := range paths {
			all = all && roots[path]
		}
		if all {
			if len(prog.Broken) == 0 && len(prog.DependencyErrors) == 0 && len(prog.OutsideBroken) == 0 {
				*after = prog
			}
			return pkgs, nil
		}
	}
	return rewrite.TypeCheck(packages.Config{Dir: root, Env: os.Environ()}, ov, paths)
}

func readModFiles(root string) modFiles {
	var m modFiles
	m.mod, _ = os.ReadFile(filepath.Join(root, "go.mod"))
	m.sum, _ = os.ReadFile(filepath.Join(root, "go.sum"))
	return m
}

// restore puts go.mod and go.sum back as they were.
func (m modFiles) restore(root string) {
	if m.mod == nil {
		return
	}
	_ = writeFileAtomic(filepath.Join(root, "go.mod"), m.mod)
	if m.sum != nil {
		_ = writeFileAtomic(filepath.Join(root, "go.sum"), m.sum)
	} else {
		_ = os.Remove(filepath.Join(root, "go.sum"))
	}
}

// fixUndo holds what fix may write, as it was before: files with their
// content (nil: absent) and the directories generation may create.
type fixUndo struct {
	files map[string][]byte
	dirs  []string
}

func snapshotFix(root string, orig modFiles, cs *generate.Changeset, res *rewrite.Result) *fixUndo {
	u := &fixUndo{files: map[string][]byte{}}
	keep := func(path string) {
		if _, done := u.files[path]; done {
			return
		}
		b, err := os.ReadFile(path)
		if err != nil {
			b = nil
		}
		u.files[path] = b
		for d := filepath.Dir(path); d != root && strings.HasPrefix(d, root); d = filepath.Dir(d) {
			if _, err := os.Stat(d); errors.Is(err, fs.ErrNotExist) {
				u.dirs = append(u.dirs, d)
			}
		}
	}
	if orig.mod != nil {
		u.files[filepath.Join(root, "go.mod")] = orig.mod
		u.files[filepath.Join(root, "go.sum")] = orig.sum
	}
	keep(filepath.Join(root, filepath.FromSlash(fixesFile)))
	keep(filepath.Join(root, filepath.FromSlash(generate.ManifestPath)))
	if cs != nil {
		for _, ch := range cs.Changes {
			keep(filepath.Join(root, filepath.FromSlash(ch.Path)))
		}
	}
	for _, f := range res.Files {
		keep(f.Path)
	}
	return u
}

// restore puts every file back and removes what fix created.
func (u *fixUndo) restore() {
	for path, b := range u.files {
		if b == nil {
			_ = os.Remove(path)
			continue
		}
		if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, b) {
			continue
		}
		_ = writeFileAtomic(path, b)
	}
	// deepest first: a directory fix created goes once it is empty
	sort.Slice(u.dirs, func(i, j int) bool { return len(u.dirs[i]) > len(u.dirs[j]) })
	for _, d := range u.dirs {
		_ = os.Remove(d)
	}
}

// hasVendor reports whether the module vendors its dependencies (then go.sum
// need not hold the code hashes: the code is in vendor/).
func hasVendor(root string) bool {
	_, err := os.Stat(filepath.Join(root, "vendor", "modules.txt"))
	return err == nil
}

// fixComponents are the template components fix generates.
var fixComponents = []string{"outbox", "migrations", "relay", "relaycmd", "relaymod", "ops", "debezium", "root"}

// hasSQLFinding reports whether a finding's write goes to a SQL store.
func hasSQLFinding(fs []dualwrite.Finding) bool {
	for _, f := range fs {
		if f.Store == catalog.SQL || f.Store == "" {
			return true
		}
	}
	return false
}

// findingStores lists the stores of record of the findings.
func findingStores(fs []dualwrite.Finding) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range fs {
		if !seen[f.Store] {
			seen[f.Store] = true
			out = append(out, f.Store)
		}
	}
	sort.Strings(out)
	return out
}

// writeDiffJSON is fix --diff --format json: the fixes.json fields for
// what would be replaced and left (lines as on disk), the files generate
// would write or remove, and the unified diff.
func writeDiffJSON(w io.Writer, root string, res *rewrite.Result, cs *generate.Changeset, vendorGaps []string, diff string) error {
	out := struct {
		fixRecord
		Generated  []string `json:"generated"`
		Removed    []string `json:"removed"`
		VendorGaps []string `json:"vendor_gaps,omitempty"`
		Diff       string   `json:"diff"`
	}{record(root, res), []string{}, []string{}, vendorGaps, diff}
	if cs != nil {
		for _, ch := range cs.Changes {
			switch ch.Action {
			case generate.Create, generate.Update:
				out.Generated = append(out.Generated, ch.Path)
			case generate.Remove:
				out.Removed = append(out.Removed, ch.Path)
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing the diff as json: %w", err)
	}
	return nil
}
