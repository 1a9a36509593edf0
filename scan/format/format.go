package format

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan/baseline"
)

// Names lists the formats Write accepts, the default first.
var Names = []string{"text", "json", "sarif", "codeclimate", "github-actions"}

// Baseline is what a scan against a baseline file adds to its output.
type Baseline struct {
	// States has one state per finding: baseline.New or baseline.Unchanged.
	States []string
	// Gone are the baseline entries no longer found.
	Gone []baseline.Gone
}

func (b *Baseline) state(i int) string {
	if b == nil || i >= len(b.States) {
		return ""
	}
	return b.States[i]
}

// Tool describes the program for formats that name it (SARIF).
type Tool struct {
	Name           string // "outboxify"
	Version        string // semantic version or "(devel)"
	InformationURI string
}

// Write writes findings in the named format; paths are relative to base.
func Write(w io.Writer, name, base string, tool Tool, findings []dualwrite.Finding) error {
	return WriteBaseline(w, name, base, tool, findings, nil)
}

// WriteBaseline is Write for a scan compared with a baseline (bl may be
// nil): text, codeclimate and github-actions list the new findings only; json carries each
// finding's baseline_state and the absent entries; sarif sets baselineState
// on every result and adds the absent ones.
func WriteBaseline(w io.Writer, name, base string, tool Tool, findings []dualwrite.Finding, bl *Baseline) error {
	return WriteWith(w, name, base, tool, findings, bl, Options{})
}

// Options change what a format shows.
type Options struct {
	// Verbose adds each finding's details (call chains, where the write
	// is, the advice) under its text line.
	Verbose bool
}

// WriteWith is WriteBaseline with options.
func WriteWith(w io.Writer, name, base string, tool Tool, findings []dualwrite.Finding, bl *Baseline, opts Options) error {
	switch name {
	case "text", "":
		if opts.Verbose {
			return TextVerbose(w, base, onlyNew(findings, bl))
		}
		return Text(w, base, onlyNew(findings, bl))
	case "json":
		return jsonReport(w, base, findings, bl)
	case "sarif":
		return sarifReport(w, base, tool, findings, bl)
	case "codeclimate":
		return CodeClimate(w, base, onlyNew(findings, bl))
	case "github-actions":
		return GitHubActions(w, base, onlyNew(findings, bl))
	}
	return fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(Names, ", "))
}

// Text writes `path:line:col: RULE message`, one finding a line, the
// message in its short form (Finding.Short): the call chains, the write's
// place and the advice are TextVerbose's and json's.
func Text(w io.Writer, base string, findings []dualwrite.Finding) error {
	return text(w, base, findings, false)
}

// TextVerbose is Text with each finding's details on indented lines under
// it: the call chains, where the DB write is, what to do.
func TextVerbose(w io.Writer, base string, findings []dualwrite.Finding) error {
	return text(w, base, findings, true)
}

func text(w io.Writer, base string, findings []dualwrite.Finding, verbose bool) error {
	for _, f := range findings {
		p := f.Publish.Position
		line := fmt.Sprintf("%s:%d:%d: %s %s", baseline.Rel(base, p.Filename), p.Line, p.Column, f.Rule, f.Short())
		if verbose {
			for _, d := range verboseLines(base, f) {
				line += "\n\t" + d
			}
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// verboseLines are a finding's details and its advice.
func verboseLines(base string, f dualwrite.Finding) []string {
	lines := Details(base, f)
	if f.Advice != "" {
		lines = append(lines, "fix: "+f.Advice)
	}
	return lines
}

// onlyNew drops the findings a baseline lets through.
func onlyNew(findings []dualwrite.Finding, bl *Baseline) []dualwrite.Finding {
	if bl == nil {
		return findings
	}
	var out []dualwrite.Finding
	for i, f := range findings {
		if bl.state(i) != baseline.Unchanged {
			out = append(out, f)
		}
	}
	return out
}

// Report is the JSON document: {"findings":[...]}, never null.
type Report struct {
	Findings []Finding `json:"findings"`
	// Absent are the baseline entries no longer found: present, maybe
	// empty, with --baseline only.
	Absent *[]AbsentFinding `json:"absent,omitempty"`
}

// AbsentFinding is a baseline entry not found by this scan, at the
// location it was last seen.
type AbsentFinding struct {
	Rule        string `json:"rule"`
	Message     string `json:"message"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Func        string `json:"func,omitempty"`
	Fingerprint string `json:"fingerprint"`
	// Count is how many of the entry's identical findings are gone.
	Count         int    `json:"count"`
	BaselineState string `json:"baseline_state"`
}

// Finding is one finding in JSON. The location is the publish's.
type Finding struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
	// Summary is the message's short form, the text output's.
	Summary string `json:"summary,omitempty"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Publish *Call  `json:"publish"`
	Write   *Call  `json:"write,omitempty"`
	// Via is the call chain from the reporting function to the publish
	// when it crossed functions (the write's chain is in Write.Via).
	Via []string `json:"via,omitempty"`
	// ViaInterface is true when either chain went through an interface
	// resolved against the loaded implementations.
	ViaInterface bool   `json:"via_interface,omitempty"`
	Func         string `json:"func,omitempty"`
	Store        string `json:"store,omitempty"`
	Advice       string `json:"advice,omitempty"`
	// Fingerprint is the finding's identity across line moves (the
	// baseline's, and SARIF's partialFingerprints).
	Fingerprint string `json:"fingerprint,omitempty"`
	// BaselineState is "new" or "unchanged" with --baseline.
	BaselineState string `json:"baseline_state,omitempty"`
}

// Call is one end of a finding in JSON.
type Call struct {
	File         string   `json:"file"`
	Line         int      `json:"line"`
	Column       int      `json:"column,omitempty"`
	Call         string   `json:"call"`
	Via          []string `json:"via,omitempty"`
	ViaInterface bool     `json:"via_interface,omitempty"`
}

// JSON writes the findings as an indented Report.
func JSON(w io.Writer, base string, findings []dualwrite.Finding) error {
	return jsonReport(w, base, findings, nil)
}

func jsonReport(w io.Writer, base string, findings []dualwrite.Finding, bl *Baseline) error {
	r := Report{Findings: make([]Finding, 0, len(findings))}
	for i, f := range findings {
		p := f.Publish.Position
		jf := Finding{
			Rule: f.Rule, Message: f.Message, Summary: f.Summary,
			File: baseline.Rel(base, p.Filename), Line: p.Line, Column: p.Column,
			Publish:      call(base, f.Publish),
			Via:          f.Publish.Via,
			ViaInterface: f.Publish.ViaInterface,
			Func:         f.Func, Store: f.Store, Advice: f.Advice,
			Fingerprint: f.Fingerprint, BaselineState: bl.state(i),
		}
		if f.Write != nil {
			jf.Write = call(base, *f.Write)
			jf.ViaInterface = jf.ViaInterface || f.Write.ViaInterface
		}
		r.Findings = append(r.Findings, jf)
	}
	if bl != nil {
		absent := []AbsentFinding{}
		for _, g := range bl.Gone {
			for _, l := range g.Places() {
				absent = append(absent, AbsentFinding{
					Rule: g.Rule, Message: g.Message, File: l.File, Line: l.Line, Func: g.Func,
					Fingerprint: g.Fingerprint, Count: 1, BaselineState: baseline.Absent,
				})
			}
		}
		r.Absent = &absent
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func call(base string, c dualwrite.Call) *Call {
	return &Call{
		File: baseline.Rel(base, c.Position.Filename), Line: c.Position.Line, Column: c.Position.Column,
		Call: c.Name, Via: c.Via, ViaInterface: c.ViaInterface,
	}
}

// fingerprints numbers identical fingerprints: the first keeps the bare
// fingerprint, the n-th gets ":n", so each result's is unique and the
// baseline's fingerprint is found in it.
type fingerprints map[string]int

func (seen fingerprints) next(fp string) string {
	seen[fp]++
	if n := seen[fp]; n > 1 {
		return fmt.Sprintf("%s:%d", fp, n)
	}
	return fp
}
