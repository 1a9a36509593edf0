package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
)

// progress tells a person at a terminal what a long scan or fix is doing:
// each stage as it ends, on stderr, and a one-line summary with the time.
// It is nil, and prints nothing, when stderr is not a terminal (CI logs,
// pipes, scripts) or with --quiet.
type progress struct {
	w     io.Writer
	start time.Time
}

func newProgress(stderr io.Writer, quiet bool) *progress {
	f, ok := stderr.(*os.File)
	if quiet || !ok || !(isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return nil
	}
	return &progress{w: stderr, start: time.Now()}
}

func (p *progress) stage(s string) {
	if p != nil {
		fmt.Fprintf(p.w, "outboxify: %s\n", s)
	}
}

// fn is the stage callback for scan.Options.Progress (nil when off).
func (p *progress) fn() func(string) {
	if p == nil {
		return nil
	}
	return p.stage
}

// done prints the summary line with the time since the start.
func (p *progress) done(format string, args ...any) {
	if p != nil {
		fmt.Fprintf(p.w, "outboxify: %s in %.1fs\n", fmt.Sprintf(format, args...), time.Since(p.start).Seconds())
	}
}
