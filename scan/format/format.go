package format

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// Names lists the formats Write accepts, the default first.
var Names = []string{"text", "json", "sarif"}

// Tool describes the program for formats that name it (SARIF).
type Tool struct {
	Name           string // "outboxify"
	Version        string // semantic version or "(devel)"
	InformationURI string
}

// Write writes findings in the named format; paths are relative to base.
func Write(w io.Writer, name, base string, tool Tool, findings []dualwrite.Finding) error {
	switch name {
	case "text", "":
		return Text(w, base, findings)
	case "json":
		return JSON(w, base, findings)
	case "sarif":
		return SARIF(w, base, tool, findings)
	}
	return fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(Names, ", "))
}

// Text writes `path:line:col: RULE message (DB write at path:line)`, one
// finding a line; the parenthesis is left out for rules without a write.
func Text(w io.Writer, base string, findings []dualwrite.Finding) error {
	for _, f := range findings {
		p := f.Publish.Position
		line := fmt.Sprintf("%s:%d:%d: %s %s", rel(base, p.Filename), p.Line, p.Column, f.Rule, f.Message)
		if f.Write != nil {
			line += fmt.Sprintf(" (DB write at %s:%d)", rel(base, f.Write.Position.Filename), f.Write.Position.Line)
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// Report is the JSON document: {"findings":[...]}, never null.
type Report struct {
	Findings []Finding `json:"findings"`
}

// Finding is one finding in JSON. The location is the publish's.
type Finding struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
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
	r := Report{Findings: make([]Finding, 0, len(findings))}
	for _, f := range findings {
		p := f.Publish.Position
		jf := Finding{
			Rule: f.Rule, Message: f.Message,
			File: rel(base, p.Filename), Line: p.Line, Column: p.Column,
			Publish:      call(base, f.Publish),
			Via:          f.Publish.Via,
			ViaInterface: f.Publish.ViaInterface,
			Func:         f.Func, Store: f.Store, Advice: f.Advice,
		}
		if f.Write != nil {
			jf.Write = call(base, *f.Write)
			jf.ViaInterface = jf.ViaInterface || f.Write.ViaInterface
		}
		r.Findings = append(r.Findings, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func call(base string, c dualwrite.Call) *Call {
	return &Call{
		File: rel(base, c.Position.Filename), Line: c.Position.Line, Column: c.Position.Column,
		Call: c.Name, Via: c.Via, ViaInterface: c.ViaInterface,
	}
}

// rel makes filename relative to base, slash separated; a file outside
// base (a scanned dependency) stays absolute.
func rel(base, filename string) string {
	if filename == "" || base == "" {
		return filepath.ToSlash(filename)
	}
	r, err := filepath.Rel(base, filename)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(filename)
	}
	return filepath.ToSlash(r)
}
