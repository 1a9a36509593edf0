package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// Summary counts a run's tests (subtests included).
type Summary struct {
	Run, Passed, FailedTests, Skipped int
	FailedPackages                    []string
	// Groups are the skipped tests by reason, most skipped first.
	Groups []Group
}

// Group is the skipped tests that share a reason.
type Group struct {
	Reason string // what to start or install, or the skip message
	Tests  []string
}

// Failed reports whether a test or a package failed, or no test ran (go
// test did not start: its message is all there is).
func (s *Summary) Failed() bool {
	return s.FailedTests > 0 || len(s.FailedPackages) > 0 || s.Run == 0
}

// skipLine is t.Skip's output line: "    file_test.go:12: message".
var skipLine = regexp.MustCompile(`^\s+[\w.-]+\.go:\d+: (.*)$`)

// serverSkip is internal/testenv's message for a server that does not
// answer: the group is the server, the remedy what starts it.
var serverSkip = regexp.MustCompile(`^(.+?) not reachable at \S+ \(.*\); start it with: (.+), or set (\S+)$`)

// Summarize copies a readable run to w and returns its counts; the summary
// line and the skip groups end it.
func Summarize(r io.Reader, w io.Writer) (*Summary, error) {
	s := &Summary{}
	out := map[string][]string{} // package + test -> output lines
	groups := map[string]*Group{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(w, "%s\n", line) // not an event: go test's own message
			continue
		}
		key := e.Package + " " + e.Test
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "output":
			if e.Test != "" {
				out[key] = append(out[key], e.Output)
				continue
			}
			// package level: the ok/FAIL line and what fails outside tests
			if o := strings.TrimSpace(e.Output); o == "PASS" || strings.HasPrefix(o, "=== ") || o == "" {
				continue
			}
			fmt.Fprint(w, e.Output)
		case "run":
			if e.Test != "" {
				s.Run++
			}
		case "pass":
			if e.Test != "" {
				s.Passed++
				delete(out, key)
			}
		case "fail":
			if e.Test == "" {
				s.FailedPackages = append(s.FailedPackages, e.Package)
				continue
			}
			s.FailedTests++
			fmt.Fprint(w, strings.Join(out[key], ""))
			delete(out, key)
		case "skip":
			if e.Test == "" {
				continue // a package without tests
			}
			s.Skipped++
			reason := skipReason(out[key])
			delete(out, key)
			g := groups[reason]
			if g == nil {
				g = &Group{Reason: reason}
				groups[reason] = g
			}
			g.Tests = append(g.Tests, e.Package+"."+e.Test)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading go test -json: %w", err)
	}
	for _, g := range groups {
		s.Groups = append(s.Groups, *g)
	}
	sort.Slice(s.Groups, func(i, j int) bool {
		if len(s.Groups[i].Tests) != len(s.Groups[j].Tests) {
			return len(s.Groups[i].Tests) > len(s.Groups[j].Tests)
		}
		return s.Groups[i].Reason < s.Groups[j].Reason
	})
	s.write(w)
	return s, nil
}

// skipReason is the group of a skipped test: the server to start, or the
// skip message.
func skipReason(lines []string) string {
	msg := ""
	for _, l := range lines {
		if m := skipLine.FindStringSubmatch(strings.TrimRight(l, "\n")); m != nil {
			msg = m[1] // the last one: t.Skip's
		}
	}
	if m := serverSkip.FindStringSubmatch(msg); m != nil {
		return fmt.Sprintf("%s not reachable: run `make services` (starts %s with: %s), or set %s", m[1], m[1], m[2], m[3])
	}
	if msg == "" {
		return "skipped without a message"
	}
	return msg
}

func (s *Summary) write(w io.Writer) {
	status := "ok"
	if s.Failed() {
		status = "FAIL"
	}
	fmt.Fprintf(w, "\n%s: %d tests run (subtests included): %d passed, %d failed, %d skipped", status, s.Run, s.Passed, s.FailedTests, s.Skipped)
	if n := len(s.FailedPackages); n > 0 {
		fmt.Fprintf(w, "; %d package(s) failed: %s", n, strings.Join(s.FailedPackages, ", "))
	}
	fmt.Fprintln(w)
	for _, g := range s.Groups {
		fmt.Fprintf(w, "  skipped %d: %s\n", len(g.Tests), g.Reason)
	}
}
