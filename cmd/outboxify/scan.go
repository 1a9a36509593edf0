package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan"
	"github.com/outboxify/outboxify/scan/baseline"
	"github.com/outboxify/outboxify/scan/format"
	"github.com/outboxify/outboxify/scan/newcode"
)

func init() { register(newScanCmd) }

func newScanCmd() *cobra.Command {
	var (
		dir     string
		output  string
		tests   bool
		verbose bool
		quiet   bool
		bf      baselineFlags
		nf      newFlags
	)
	cmd := &cobra.Command{
		Use:   "scan [-C dir] [--format text|json|sarif|codeclimate|github-actions] [--tests] [--baseline file | --baseline-write file] [packages]",
		Short: "Find dual writes: a DB write and a broker publish without one transaction",
		Long: `scan loads the packages (default ./...) with full type information and reports
every place where code writes to a database and publishes to a broker without
one transaction, following calls across functions and, since it sees the whole
program, through interfaces. Packages named on part of a module are resolved
against the whole module (an interface implemented in a sibling package is
followed), and only their findings are reported.

Packages that do not type-check are listed and the others are still
analysed and reported (exit 2 all the same).

On a codebase with existing dual writes, record them once with
--baseline-write .outboxify/baseline.json and scan with --baseline
.outboxify/baseline.json: only findings beyond the baseline are reported and
fail the run. A finding is identified by a fingerprint (rule, enclosing
function, publish and write calls, the shape of their statements) that
survives moved lines, renamed local variables and edits elsewhere; identical
findings are counted. Baseline entries no longer found are listed as fixed
(exit 0 with a note; --baseline-strict fails so the file is kept current).

--new-from-rev main reports only the findings where a line of the finding's
chain (the statements of the publish and the write, the bodies of the
functions between) changed since the merge-base of main and HEAD, uncommitted
and untracked files included, renames followed; --new-from-patch FILE does
the same from a unified diff. A change that only deletes lines cannot be
seen this way. With --baseline both filters apply.

Text output is one short line a finding, path:line:col: RULE message;
-v adds the call chains, where the write is and what to do under it (json
has them too, as fields).

Exit status: 0 no findings (beyond the baseline), 1 findings, 2 packages
did not load or type-check, a bad flag, a bad .outboxify.yaml or baseline.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !validFormat(output) {
				return withCode(exitError, fmt.Errorf("--format %q: want one of %s", output, strings.Join(format.Names, ", ")))
			}
			if err := bf.check(); err != nil {
				return withCode(exitError, err)
			}
			if err := nf.check(bf); err != nil {
				return withCode(exitError, err)
			}
			changes, err := nf.changes(dir)
			if err != nil {
				return withCode(exitError, err)
			}
			var base *baseline.File
			if bf.read != "" {
				// read before the scan: a missing file is told at once
				b, err := baseline.Read(resolve(dir, bf.read))
				if err != nil {
					return withCode(exitError, fmt.Errorf("--baseline: %w", err))
				}
				base = b
			}
			progress_ := newProgress(cmd.ErrOrStderr(), quiet)
			prog, err := scan.Load(dir, args, scan.Options{Tests: tests, Partial: true, WholeModule: true, Progress: progress_.fn()})
			if err != nil {
				return withCode(exitError, err)
			}
			findings := prog.Findings
			var bl *format.Baseline
			var cmp *baseline.Comparison
			if base != nil {
				if base.Fingerprint != scan.FingerprintVersion {
					return withCode(exitError, fmt.Errorf("--baseline %s: fingerprints of scheme %q, this outboxify computes %q: write it again with --baseline-write", bf.read, base.Fingerprint, scan.FingerprintVersion))
				}
				cmp = base.Compare(prog.Dir, findings)
				bl = &format.Baseline{States: cmp.States, Gone: cmp.Gone}
			}
			if changes != nil {
				// only findings whose chain has a changed line; with a
				// baseline both filters apply
				var kept []dualwrite.Finding
				var states []string
				for i, f := range findings {
					if touched(prog, changes, f) {
						kept = append(kept, f)
						if cmp != nil {
							states = append(states, cmp.States[i])
						}
					}
				}
				if n := len(findings) - len(kept); n > 0 {
					fmt.Fprintf(cmd.ErrOrStderr(), "note: %d finding(s) not reported: none of their lines are among the %s\n", n, changes.Describe)
				}
				findings = kept
				if cmp != nil {
					cmp.States, cmp.New, cmp.Unchanged = states, 0, 0
					for _, st := range states {
						if st == baseline.New {
							cmp.New++
						} else {
							cmp.Unchanged++
						}
					}
					bl.States = states
				}
			}
			tool := format.Tool{Name: "outboxify", Version: version()}
			if err := format.WriteWith(cmd.OutOrStdout(), output, prog.Dir, tool, findings, bl, format.Options{Verbose: verbose}); err != nil {
				return withCode(exitError, fmt.Errorf("writing findings: %w", err))
			}
			progress_.done("scan: %d finding(s) in %d package(s)", len(findings), len(prog.Packages))
			if n := len(prog.Unresolved); n > 0 {
				shown := prog.Unresolved
				if n > 10 {
					shown = shown[:10]
				}
				more := ""
				if n > len(shown) {
					more = fmt.Sprintf(" (and %d more)", n-len(shown))
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %d interface method(s) of this module are called but no loaded package implements them; calls through them were not followed: %s%s\n",
					n, strings.Join(shown, ", "), more)
			}
			if prog.WorkspaceOff != "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", prog.WorkspaceOff)
			}
			if n := len(prog.OutsideBroken); n > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %d package(s) of the module outside those asked do not type-check, calls into them were not followed: %s\n",
					n, strings.Join(prog.OutsideBroken, ", "))
			}
			if n := len(prog.DependencyErrors); n > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %d error(s) in dependencies, the packages using them were analysed all the same:%s\n",
					n, scan.FormatErrors(prog.Dir, prog.DependencyErrors))
			}
			if len(prog.Broken) > 0 {
				// the findings above cover the packages that type-check; the
				// others are listed and make the run fail as a load error does
				return withCode(exitError, fmt.Errorf("%d package(s) not analysed, they do not type-check: %s; %d package error(s):%s",
					len(prog.Skipped), strings.Join(prog.Skipped, ", "), len(prog.Broken), scan.FormatErrors(prog.Dir, prog.Broken)))
			}
			if bf.write != "" {
				path := resolve(dir, bf.write)
				b := baseline.Build(prog.Dir, scan.FingerprintVersion, findings)
				if err := b.WriteFile(path); err != nil {
					return withCode(exitError, fmt.Errorf("--baseline-write: %w", err))
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "note: baseline %s written: %d finding(s) recorded (%d distinct); scan with --baseline %s to report only findings beyond them\n",
					bf.write, len(findings), len(b.Findings), bf.write)
				return nil
			}
			if cmp != nil {
				return baselineOutcome(cmd, bf, cmp)
			}
			if len(findings) > 0 {
				return withCode(exitFindings, nil)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&dir, "dir", "C", ".", "run in `dir` (module or subdirectory); paths are printed relative to it")
	cmd.Flags().StringVar(&output, "format", "text", "output `format`: text, json, sarif, codeclimate or github-actions (annotations on a PR's diff)")
	cmd.Flags().BoolVar(&tests, "tests", false, "also scan _test.go files")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "no progress on stderr (it is shown only on a terminal)")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "text: under each finding, the call chains to the publish and the write, where the write is, and what to do")
	cmd.Flags().StringVar(&bf.read, "baseline", "", "report and fail only on findings beyond those recorded in `file` (relative to -C)")
	cmd.Flags().StringVar(&bf.write, "baseline-write", "", "record every finding in `file` (relative to -C) and exit 0, e.g. .outboxify/baseline.json")
	cmd.Flags().StringVar(&nf.rev, "new-from-rev", "", "report only findings on lines changed since the merge-base of `rev` and HEAD (uncommitted changes included; needs that history: fetch-depth 0)")
	cmd.Flags().StringVar(&nf.patch, "new-from-patch", "", "report only findings on lines a unified diff `file` adds or changes (paths relative to the git work tree)")
	cmd.Flags().BoolVar(&bf.strict, "baseline-strict", false, "with --baseline, also fail when baseline entries are no longer found (keep the file current)")
	return cmd
}

type baselineFlags struct {
	read, write string
	strict      bool
}

func (bf baselineFlags) check() error {
	switch {
	case bf.read != "" && bf.write != "":
		return fmt.Errorf("--baseline and --baseline-write: use one (--baseline-write alone records the findings anew)")
	case bf.strict && bf.read == "":
		return fmt.Errorf("--baseline-strict needs --baseline")
	}
	return nil
}

// resolve makes a file flag relative to -C, as the packages are.
func resolve(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// baselineOutcome tells the baseline comparison on stderr and picks the
// exit code: 1 for new findings, or for entries gone under --baseline-strict.
func baselineOutcome(cmd *cobra.Command, bf baselineFlags, cmp *baseline.Comparison) error {
	stderr := cmd.ErrOrStderr()
	fmt.Fprintf(stderr, "note: baseline %s: %d new finding(s), %d unchanged (in the baseline), %d fixed\n", bf.read, cmp.New, cmp.Unchanged, cmp.Absent)
	for _, g := range cmp.Gone {
		for _, l := range g.Places() {
			fmt.Fprintf(stderr, "note: fixed (in the baseline, no longer found): %s: %s %s\n", l, g.Rule, g.Message)
		}
	}
	if cmp.Absent > 0 {
		if bf.strict {
			if cmp.New > 0 {
				return withCode(exitFindings, fmt.Errorf("%d new finding(s); and %d baseline finding(s) no longer found (--baseline-strict): write the baseline again with --baseline-write %s", cmp.New, cmp.Absent, bf.read))
			}
			return withCode(exitFindings, fmt.Errorf("%d baseline finding(s) no longer found (--baseline-strict): write the baseline again with --baseline-write %s", cmp.Absent, bf.read))
		}
		fmt.Fprintf(stderr, "note: remove the fixed entries with --baseline-write %s\n", bf.read)
	}
	if cmp.New > 0 {
		return withCode(exitFindings, nil)
	}
	return nil
}

func validFormat(name string) bool {
	for _, n := range format.Names {
		if n == name {
			return true
		}
	}
	return false
}

type newFlags struct{ rev, patch string }

func (nf newFlags) check(bf baselineFlags) error {
	switch {
	case nf.rev != "" && nf.patch != "":
		return fmt.Errorf("--new-from-rev and --new-from-patch: use one")
	case (nf.rev != "" || nf.patch != "") && bf.write != "":
		return fmt.Errorf("--baseline-write records every finding: it does not go with --new-from-rev or --new-from-patch")
	}
	return nil
}

// changes reads the changed lines the flags name; nil without them.
func (nf newFlags) changes(dir string) (*newcode.Changes, error) {
	switch {
	case nf.rev != "":
		return newcode.FromRev(dir, nf.rev)
	case nf.patch != "":
		return newcode.FromPatchFile(dir, resolve(dir, nf.patch))
	}
	return nil, nil
}

// touched reports whether a line of the finding's chain changed.
func touched(prog *scan.Program, changes *newcode.Changes, f dualwrite.Finding) bool {
	for _, r := range prog.Chain(f) {
		if changes.Touches(r.File, r.From, r.To) {
			return true
		}
	}
	return false
}
