package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/outboxify/outboxify/scan"
	"github.com/outboxify/outboxify/scan/format"
)

func init() { register(newScanCmd) }

func newScanCmd() *cobra.Command {
	var (
		dir    string
		output string
		tests  bool
	)
	cmd := &cobra.Command{
		Use:   "scan [-C dir] [--format text|json|sarif] [--tests] [packages]",
		Short: "Find dual writes: a DB write and a broker publish without one transaction",
		Long: `scan loads the packages (default ./...) with full type information and reports
every place where code writes to a database and publishes to a broker without
one transaction, following calls across functions and, since it sees the whole
program, through interfaces.

Packages that do not type-check are listed and the others are still
analysed and reported (exit 2 all the same).

Exit status: 0 no findings, 1 findings, 2 packages did not load or
type-check, a bad flag, or a bad .outboxify.yaml.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !validFormat(output) {
				return withCode(exitError, fmt.Errorf("--format %q: want one of %s", output, strings.Join(format.Names, ", ")))
			}
			prog, err := scan.Load(dir, args, scan.Options{Tests: tests, Partial: true})
			if err != nil {
				return withCode(exitError, err)
			}
			tool := format.Tool{Name: "outboxify", Version: version()}
			if err := format.Write(cmd.OutOrStdout(), output, prog.Dir, tool, prog.Findings); err != nil {
				return withCode(exitError, fmt.Errorf("writing findings: %w", err))
			}
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
			if len(prog.Findings) > 0 {
				return withCode(exitFindings, nil)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&dir, "dir", "C", ".", "run in `dir` (module or subdirectory); paths are printed relative to it")
	cmd.Flags().StringVar(&output, "format", "text", "output `format`: text, json or sarif")
	cmd.Flags().BoolVar(&tests, "tests", false, "also scan _test.go files")
	return cmd
}

func validFormat(name string) bool {
	for _, n := range format.Names {
		if n == name {
			return true
		}
	}
	return false
}
