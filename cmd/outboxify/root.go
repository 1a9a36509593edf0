package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Exit codes shared by every command.
const (
	exitOK       = 0 // clean / everything done
	exitFindings = 1 // findings left for a person
	exitError    = 2 // could not load, type-check, bad flags or config
)

// exitErr carries a specific exit code out of a command's RunE.
type exitErr struct {
	code int
	err  error
}

func (e *exitErr) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e *exitErr) Unwrap() error { return e.err }

// withCode returns an error that makes run exit with code; a nil err exits
// silently with that code (used for "findings present").
func withCode(code int, err error) error { return &exitErr{code: code, err: err} }

// commands is filled by each command file's init, so adding a command does
// not touch this file.
var commands []func() *cobra.Command

func register(newCmd func() *cobra.Command) { commands = append(commands, newCmd) }

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "outboxify",
		Short: "Find, fix and prevent dual writes with the transactional outbox pattern",
		Long: `outboxify finds Go code that writes to a database and publishes to a broker
without one transaction (a "dual write"), rewrites it into an outbox insert on
the same transaction, and generates the migration, relay, inbox and ops files.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version beside the version subcommand, printing the same line
		Version: version(),
	}
	root.SetVersionTemplate("outboxify {{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	for _, c := range commands {
		root.AddCommand(c())
	}
	return root
}

// run executes the CLI and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitErr
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "outboxify:", ee.err)
		}
		return ee.code
	}
	// Flag parsing and unknown commands land here: a usage error.
	fmt.Fprintln(stderr, "outboxify:", err)
	return exitError
}

func init() {
	register(func() *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print the outboxify version",
			Args:  cobra.NoArgs,
			Run: func(cmd *cobra.Command, _ []string) {
				fmt.Fprintln(cmd.OutOrStdout(), "outboxify", version())
			},
		}
	})
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
