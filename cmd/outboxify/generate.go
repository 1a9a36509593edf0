package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/outboxify/outboxify/generate"
	"github.com/outboxify/outboxify/report"
	"github.com/outboxify/outboxify/rewrite"
)

func init() { register(newGenerateCmd) }

func newGenerateCmd() *cobra.Command {
	var (
		dir         string
		gen         generate.Flags
		diff, force bool
	)
	cmd := &cobra.Command{
		Use:   "generate",
		Short: "Generate the outbox migration, writer, inbox, relay and ops files",
		Long: `generate writes what the transactional outbox pattern needs, for the database,
driver, broker and migration tool the project already uses (detected from go.mod
and existing files; a flag overrides): the outbox and inbox migration, the
outbox writer package (Insert on the caller's transaction), the inbox package
with consumer glue, the relay, and ops files (or the Debezium connector config
with --relay debezium).

Re-running over unchanged output changes nothing. Files are tracked in
.outboxify/generated.json; a file edited since it was generated, or one
outboxify did not write, is not overwritten without --force. Writes are atomic:
all files or none.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runGenerate(cmd.OutOrStdout(), cmd.ErrOrStderr(), dir, gen, diff, force)
		},
	}
	cmd.Flags().StringVarP(&dir, "dir", "C", ".", "run in `dir` (the module or a directory inside it)")
	cmd.Flags().BoolVar(&diff, "diff", false, "print a unified diff of what would change and write nothing")
	cmd.Flags().BoolVar(&force, "force", false, "overwrite files that differ from the generated content")
	gen.Register(cmd.Flags())
	return cmd
}

func runGenerate(stdout, stderr io.Writer, dir string, gen generate.Flags, diff, force bool) error {
	if err := gen.Validate(); err != nil {
		return withCode(exitError, err)
	}
	cfg, det, err := generate.Detect(dir)
	if err != nil {
		return withCode(exitError, err)
	}
	// With --diff stdout is the diff alone.
	info := stdout
	if diff {
		info = stderr
	}
	fmt.Fprintf(info, "detected:\n%s", det)
	detectedBroker := cfg.Broker
	cfg = generate.Override(cfg, gen.Config())
	if cfg.Broker != detectedBroker {
		// The consumer glue follows the client of the broker asked for.
		var notes []string
		cfg, notes = det.Client(cfg)
		for _, n := range notes {
			fmt.Fprintf(info, "  note: %s\n", n)
		}
	}
	if why := det.NoBroker(cfg, gen.Broker); why != "" {
		return withCode(exitError, fmt.Errorf("%s; pass --broker %s to generate a relay for a supported one", why, strings.Join(generate.Brokers, "|")))
	}
	out := gen.Out
	if out == "" {
		out = det.Out // the last run's --out
	}
	cs, err := generate.Plan(dir, cfg, generate.Options{Out: out})
	if err != nil {
		return withCode(exitError, err)
	}
	c := cs.Config
	fmt.Fprintf(info, "generating: db=%s driver=%s broker=%s migrations=%s (%s, version %s) relay=%s notify=%s\n",
		c.DB, c.Driver, c.Broker, c.Migrations, c.MigrationsDir, c.MigrationVersion, c.Relay, c.Notify)
	pending := cs.Pending(force)
	// What generate is about to write is built first (the module with the
	// files as an overlay; the relay module apart). A change that breaks
	// the build is not written, unless the only cause is requirements the
	// user must add (then the files are written and the exit status says
	// the module needs them).
	missing, _ := cs.MissingRequirements()
	var chg *change
	if pending {
		if chg, err = planChange(cs.Root, cs, nil); err != nil {
			return withCode(exitError, err)
		}
		if err := chg.baseline(); err != nil {
			return withCode(exitError, err)
		}
	}
	var code error
	verify := func() error {
		if chg == nil {
			return nil
		}
		err := chg.check(stderr)
		if err == nil {
			return nil
		}
		if len(missing) > 0 {
			// The files stay (the user asked for them); the module builds once
			// the requirements are added: not done, so not exit 0.
			code = withCode(exitFindings, fmt.Errorf("the module does not build until the generated code's requirements are added: go get %s", strings.Join(missing, " ")))
			return nil
		}
		return err
	}
	if diff {
		fmt.Fprint(stdout, generate.Diff(cs))
		if chg != nil && len(chg.vendorGaps) > 0 {
			fmt.Fprintf(stdout, "go mod vendor (vendor/ lacks %s, which the generated code imports)\n", strings.Join(chg.vendorGaps, ", "))
		}
		if err := verify(); err != nil {
			return withCode(exitError, fmt.Errorf("this diff is not safe to apply: %w", err))
		}
		return code
	}
	fmt.Fprint(info, cs.Summary())
	if err := verify(); err != nil {
		return withCode(exitError, fmt.Errorf("generate changed nothing: %w", err))
	}
	var undo *fixUndo
	if chg != nil {
		undo = snapshotFix(cs.Root, readModFiles(cs.Root), cs, &rewrite.Result{})
	}
	// With nothing pending Apply still records unchanged files in the
	// manifest when it lacks them, and refuses conflicts.
	if err := cs.Apply(force); err != nil {
		var conflict *generate.ConflictError
		if errors.As(err, &conflict) {
			return withCode(exitError, err)
		}
		return withCode(exitError, fmt.Errorf("write generated files: %w", err))
	}
	if !pending {
		fmt.Fprintln(info, "nothing to write: the generated files are up to date")
		return nil
	}
	fmt.Fprintf(info, "wrote the files above under %s\n", cs.Root)
	if len(missing) > 0 {
		fmt.Fprintf(info, "the generated code imports packages go.mod does not require yet; run:\n  go get %s\n", strings.Join(missing, " "))
	}
	if code == nil && len(chg.vendorGaps) > 0 {
		if err := revendor(cs.Root, chg.before); err != nil {
			undo.restore()
			return withCode(exitError, fmt.Errorf("generate changed nothing (vendor/ and every file are as they were): %w", err))
		}
		fmt.Fprintf(info, "go mod vendor (vendor/ lacked %s)\n", strings.Join(chg.vendorGaps, ", "))
	}
	// End with the migration's output contract, as fix does; it informs and
	// does not change the exit status.
	if r, err := report.Build(dir, report.Options{}); err == nil {
		fmt.Fprintf(info, "\n%s", r.Markdown())
	} else {
		fmt.Fprintf(stderr, "outboxify: report: %v\n", err)
	}
	return code
}
