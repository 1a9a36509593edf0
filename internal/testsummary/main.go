// Command testsummary reads `go test -json` on stdin, prints what plain
// `go test` would (a line per package, the output of failed tests) and
// ends with one summary line: tests run, passed, failed, skipped, and for
// each group of skipped tests what to start so that they run. Without
// it a run with no servers prints `ok` for every package while dozens of
// tests skipped, their reasons visible only with -v. `make test` uses it.
//
// Exit status 1 when a test or a package failed, else 0.
package main

import (
	"fmt"
	"os"
)

func main() {
	s, err := Summarize(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if s.Failed() {
		os.Exit(1)
	}
}
