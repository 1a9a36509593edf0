package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/outboxify/outboxify/report"
)

func init() { register(newReportCmd) }

func newReportCmd() *cobra.Command {
	var (
		dir    string
		output string
		tests  bool
	)
	cmd := &cobra.Command{
		Use:   "report [-C dir] [--format markdown|json] [packages]",
		Short: "Print the outbox migration's output contract from the repository's state",
		Long: `report prints the six-line contract of an outbox migration, each line derived
from the code and generated files: dual writes replaced (recorded by fix) and
remaining (found by scan), the outbox migration and the transactions that write
outbox rows, the relay, the ordering key, the consumers (inbox, idempotency
keys) and ops (cleanup schedule, alert, replay runbook). A field it cannot find
says so and which command produces it.

Exit status: 0 no dual writes remain, 1 dual writes remain (a CI gate),
2 a bad flag, or the packages did not load or type-check (the report is still
printed, with dual writes and consumers marked as not checked, and the package
errors go to stderr).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if output != "markdown" && output != "json" {
				return withCode(exitError, fmt.Errorf("--format %q: want one of markdown, json", output))
			}
			r, err := report.Build(dir, report.Options{Patterns: args, Tests: tests})
			if err != nil {
				return withCode(exitError, err)
			}
			if output == "json" {
				b, err := r.JSON()
				if err != nil {
					return withCode(exitError, err)
				}
				_, err = cmd.OutOrStdout().Write(b)
				if err != nil {
					return withCode(exitError, err)
				}
			} else if _, err := fmt.Fprint(cmd.OutOrStdout(), r.Markdown()); err != nil {
				return withCode(exitError, err)
			}
			if len(r.LoadErrors) > 0 {
				return withCode(exitError, fmt.Errorf("%d package error(s), dual writes and consumers not checked:\n\t%s",
					len(r.LoadErrors), strings.Join(r.LoadErrors, "\n\t")))
			}
			if r.DualWritesRemain() {
				return withCode(exitFindings, nil)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&dir, "dir", "C", ".", "run in `dir` (module or subdirectory)")
	cmd.Flags().StringVar(&output, "format", "markdown", "output `format`: markdown or json")
	cmd.Flags().BoolVar(&tests, "tests", false, "also scan _test.go files")
	return cmd
}
