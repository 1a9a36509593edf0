// Package baseline records a scan's findings by fingerprint so that a
// later scan reports only the findings beyond them: adopting outboxify on
// a codebase with existing dual writes without failing CI on all of them.
//
// Identical findings (the same fingerprint) are counted, not merged: a
// baseline of two lets two through and reports a third as new.
package baseline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// Version of the file layout.
const Version = 1

// States of a finding against a baseline (SARIF baselineState values).
const (
	New       = "new"
	Unchanged = "unchanged"
	Absent    = "absent"
)

// File is the baseline document.
type File struct {
	Version int `json:"version"`
	// Fingerprint names the fingerprint scheme (scan.FingerprintVersion).
	Fingerprint string  `json:"fingerprint"`
	Findings    []Entry `json:"findings"`
}

// Entry is one fingerprint and every place it was seen.
type Entry struct {
	Fingerprint string     `json:"fingerprint"`
	Rule        string     `json:"rule"`
	Func        string     `json:"func,omitempty"`
	Publish     string     `json:"publish,omitempty"`
	Write       string     `json:"write,omitempty"`
	Message     string     `json:"message"`
	Count       int        `json:"count"`
	Locations   []Location `json:"locations"`
}

// Location is where a finding was seen (its publish), path slash
// separated and relative to the scanned directory.
type Location struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column,omitempty"`
}

func (l Location) String() string { return fmt.Sprintf("%s:%d", l.File, l.Line) }

// Build records findings (their Fingerprint set) into a baseline; paths
// are made relative to base.
func Build(base, scheme string, findings []dualwrite.Finding) *File {
	byFP := map[string]*Entry{}
	var order []string
	for _, f := range findings {
		e, ok := byFP[f.Fingerprint]
		if !ok {
			e = &Entry{Fingerprint: f.Fingerprint, Rule: f.Rule, Func: f.Func, Publish: f.Publish.Name, Message: short(f.Message)}
			if f.Write != nil {
				e.Write = f.Write.Name
			}
			byFP[f.Fingerprint] = e
			order = append(order, f.Fingerprint)
		}
		e.Count++
		e.Locations = append(e.Locations, locationOf(base, f))
	}
	out := &File{Version: Version, Fingerprint: scheme, Findings: []Entry{}}
	for _, fp := range order {
		out.Findings = append(out.Findings, *byFP[fp])
	}
	sort.SliceStable(out.Findings, func(i, j int) bool {
		a, b := out.Findings[i].Locations[0], out.Findings[j].Locations[0]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return out.Findings[i].Fingerprint < out.Findings[j].Fingerprint
	})
	return out
}

// short keeps the message up to the advice (the part after "; ").
func short(msg string) string {
	if i := strings.Index(msg, "; "); i > 0 {
		return msg[:i]
	}
	return msg
}

func locationOf(base string, f dualwrite.Finding) Location {
	p := f.Publish.Position
	return Location{File: Rel(base, p.Filename), Line: p.Line, Column: p.Column}
}

// Rel is the path form of every location outboxify prints and records:
// relative to base (the -C directory), slash separated; a file outside base
// (a scanned dependency) stays absolute. The baseline and the output
// formats share it so their locations compare equal.
func Rel(base, filename string) string {
	if filename == "" || base == "" {
		return filepath.ToSlash(filename)
	}
	r, err := filepath.Rel(base, filename)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(filename)
	}
	return filepath.ToSlash(r)
}

// Marshal is the file's bytes: indented JSON with a final newline, so the
// file diffs well in review.
func (b *File) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteFile writes the baseline to path, creating its directory.
func (b *File) WriteFile(path string) error {
	data, err := b.Marshal()
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return os.WriteFile(path, data, 0o644)
}

// Read reads a baseline file.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var b File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("%s: not a baseline file: %w", path, err)
	}
	if b.Version != Version {
		return nil, fmt.Errorf("%s: baseline version %d, this outboxify reads version %d: write it again with --baseline-write", path, b.Version, Version)
	}
	for i, e := range b.Findings {
		if e.Fingerprint == "" || e.Count < 1 {
			return nil, fmt.Errorf("%s: entry %d has no fingerprint or a count below 1", path, i+1)
		}
	}
	return &b, nil
}

// Gone is a baseline finding no longer found: fixed, or changed beyond
// recognition (then it is also reported as new).
type Gone struct {
	Entry
	// Missing is how many of the entry's Count were not found.
	Missing int
	// Last are the recorded locations left unmatched: where it was last seen.
	Last []Location
}

// Places gives one location per missing finding: the recorded ones left
// unmatched, the first again when a hand-edited count is higher.
func (g Gone) Places() []Location {
	out := make([]Location, 0, g.Missing)
	for k := 0; k < g.Missing; k++ {
		switch {
		case k < len(g.Last):
			out = append(out, g.Last[k])
		case len(g.Last) > 0:
			out = append(out, g.Last[0])
		case len(g.Locations) > 0:
			out = append(out, g.Locations[0])
		default:
			out = append(out, Location{})
		}
	}
	return out
}

// Comparison is a scan compared with a baseline.
type Comparison struct {
	// States has one state per finding, New or Unchanged, in order.
	States []string
	// Gone lists the baseline entries (or part of their count) not found.
	Gone []Gone
	// Counts of findings by state.
	New, Unchanged, Absent int
}

// Compare matches findings (Fingerprint set) against the baseline. Each
// fingerprint lets through as many findings as the baseline counted,
// those at a recorded location first; the rest are New. Entries matched
// fewer times than counted are Gone, with the recorded locations left over.
func (b *File) Compare(base string, findings []dualwrite.Finding) *Comparison {
	c := &Comparison{States: make([]string, len(findings))}
	type slot struct {
		entry *Entry
		used  []bool // per location
		left  int
	}
	slots := map[string]*slot{}
	for i := range b.Findings {
		e := &b.Findings[i]
		if s, ok := slots[e.Fingerprint]; ok { // hand-merged file: add up
			s.entry.Count += e.Count
			s.entry.Locations = append(s.entry.Locations, e.Locations...)
			s.used = make([]bool, len(s.entry.Locations))
			s.left = s.entry.Count
			continue
		}
		cp := *e
		cp.Locations = append([]Location(nil), e.Locations...)
		slots[e.Fingerprint] = &slot{entry: &cp, used: make([]bool, len(cp.Locations)), left: cp.Count}
	}
	// first pass: findings at a recorded location
	for i, f := range findings {
		s := slots[f.Fingerprint]
		if s == nil || s.left == 0 {
			continue
		}
		loc := locationOf(base, f)
		for j, l := range s.entry.Locations {
			if !s.used[j] && l.File == loc.File && l.Line == loc.Line {
				s.used[j] = true
				s.left--
				c.States[i] = Unchanged
				break
			}
		}
	}
	// second pass: the others (moved) take the remaining count
	for i, f := range findings {
		if c.States[i] != "" {
			continue
		}
		s := slots[f.Fingerprint]
		if s == nil || s.left == 0 {
			c.States[i] = New
			c.New++
			continue
		}
		s.left--
		for j := range s.used { // the nearest recorded location is taken
			if !s.used[j] {
				s.used[j] = true
				break
			}
		}
		c.States[i] = Unchanged
	}
	for _, st := range c.States {
		if st == Unchanged {
			c.Unchanged++
		}
	}
	for i := range b.Findings {
		s := slots[b.Findings[i].Fingerprint]
		if s == nil || s.left == 0 {
			continue
		}
		g := Gone{Entry: *s.entry, Missing: s.left}
		for j, l := range s.entry.Locations {
			if !s.used[j] {
				g.Last = append(g.Last, l)
			}
		}
		c.Gone = append(c.Gone, g)
		c.Absent += s.left
		s.left = 0 // a merged duplicate entry is listed once
	}
	return c
}
