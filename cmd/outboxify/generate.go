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
	cfg = generate.Override(cfg, gen.Config())
	if len(det.Unsupported) > 0 && gen.Broker == "" && cfg.Relay != "debezium" {
		return withCode(exitError, fmt.Errorf("no supported broker client in this module (%s); pass --broker %s to generate a relay for a supported one",
			strings.Join(det.Unsupported, "; "), strings.Join(generate.Brokers, "|")))
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
	if diff {
		fmt.Fprint(stdout, generate.Diff(cs))
		return nil
	}
	fmt.Fprint(info, cs.Summary())
	pending := cs.Pending(force)
	// A module that built before generate still builds after it, or
	// generate says what it needs (exit 1) or puts everything back (exit 2).
	builtBefore := pending && buildModule(cs.Root) == nil
	var undo *fixUndo
	if builtBefore {
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
	missing, _ := cs.MissingRequirements()
	if len(missing) > 0 {
		fmt.Fprintf(info, "the generated code imports packages go.mod does not require yet; run:\n  go get %s\n", strings.Join(missing, " "))
	}
	var code error
	if builtBefore {
		if err := buildModule(cs.Root); err != nil {
			if len(missing) == 0 {
				undo.restore()
				return withCode(exitError, fmt.Errorf("the module built before generate and would not build after it, so generate changed nothing: %w", err))
			}
			// The files stay (the user asked for them); the module builds once
			// the requirements are added: not done, so not exit 0.
			code = withCode(exitFindings, fmt.Errorf("the module does not build until the generated code's requirements are added: go get %s", strings.Join(missing, " ")))
		}
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
