package format

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan/baseline"
)

// SARIF 2.1.0, the subset code scanning reads.
const (
	SARIFVersion = "2.1.0"
	SARIFSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// SrcRoot is the uriBaseId of every location: the -C directory,
	// which CI runs from the repository root.
	SrcRoot = "%SRCROOT%"
)

// SARIFLog is the top-level SARIF document.
type SARIFLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []SARIFRun `json:"runs"`
}

// SARIFRun is the one run of a scan.
type SARIFRun struct {
	Tool       SARIFTool       `json:"tool"`
	ColumnKind string          `json:"columnKind"`
	Results    []SARIFResult   `json:"results"`
	BaseIDs    map[string]SURI `json:"originalUriBaseIds,omitempty"`
}

// SURI is an artifactLocation used as a base id.
type SURI struct {
	URI string `json:"uri,omitempty"`
}

// SARIFTool names the driver and its rules.
type SARIFTool struct {
	Driver SARIFDriver `json:"driver"`
}

// SARIFDriver is tool.driver.
type SARIFDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	SemanticVer    string      `json:"semanticVersion,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []SARIFRule `json:"rules"`
}

// SARIFRule is a reportingDescriptor.
type SARIFRule struct {
	ID                   string       `json:"id"`
	Name                 string       `json:"name"`
	ShortDescription     SARIFText    `json:"shortDescription"`
	FullDescription      SARIFText    `json:"fullDescription"`
	Help                 SARIFText    `json:"help"`
	DefaultConfiguration SARIFRuleCfg `json:"defaultConfiguration"`
}

// SARIFRuleCfg is a reportingConfiguration.
type SARIFRuleCfg struct {
	Level string `json:"level"`
}

// SARIFText is a multiformatMessageString (or a message).
type SARIFText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

// SARIFResult is one finding.
type SARIFResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             SARIFText         `json:"message"`
	Locations           []SARIFLocation   `json:"locations"`
	RelatedLocations    []SARIFLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	// BaselineState is new, unchanged or absent with --baseline.
	BaselineState string `json:"baselineState,omitempty"`
	// Kind is "pass" for an absent result (the problem is gone); empty
	// (SARIF's default "fail") otherwise.
	Kind string `json:"kind,omitempty"`
}

// FingerprintKey is the partialFingerprints key holding the finding's
// fingerprint (the baseline's); the value is the fingerprint, with ":n"
// for the n-th identical finding.
const FingerprintKey = "outboxify/v1"

// SARIFLocation is a location with one physicalLocation.
type SARIFLocation struct {
	ID               int           `json:"id,omitempty"`
	PhysicalLocation SARIFPhysical `json:"physicalLocation"`
	Message          *SARIFText    `json:"message,omitempty"`
}

// SARIFPhysical is a physicalLocation.
type SARIFPhysical struct {
	ArtifactLocation SARIFArtifact `json:"artifactLocation"`
	Region           SARIFRegion   `json:"region"`
}

// SARIFArtifact is an artifactLocation relative to a base id.
type SARIFArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// SARIFRegion is a region; columns are UTF-16 code units (columnKind).
type SARIFRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// SARIF writes the findings as a SARIF 2.1.0 log with one run.
func SARIF(w io.Writer, base string, tool Tool, findings []dualwrite.Finding) error {
	return sarifReport(w, base, tool, findings, nil)
}

func sarifReport(w io.Writer, base string, tool Tool, findings []dualwrite.Finding, bl *Baseline) error {
	if tool.Name == "" {
		tool.Name = "outboxify"
	}
	if tool.InformationURI == "" {
		tool.InformationURI = "https://github.com/outboxify/outboxify"
	}
	driver := SARIFDriver{Name: tool.Name, Version: tool.Version, InformationURI: tool.InformationURI}
	if strings.HasPrefix(tool.Version, "v") {
		driver.SemanticVer = strings.TrimPrefix(tool.Version, "v")
	}
	index := map[string]int{}
	addRule := func(id string) int {
		if i, ok := index[id]; ok {
			return i
		}
		d := ruleDoc(id)
		index[id] = len(driver.Rules)
		driver.Rules = append(driver.Rules, SARIFRule{
			ID: d.ID, Name: d.Name,
			ShortDescription:     SARIFText{Text: d.Short},
			FullDescription:      SARIFText{Text: d.Full},
			Help:                 SARIFText{Text: stripMarkdown(d.Help), Markdown: d.Help},
			DefaultConfiguration: SARIFRuleCfg{Level: d.Level},
		})
		return index[id]
	}
	for _, r := range Rules {
		addRule(r.ID)
	}
	lines := lineCache{}
	occurrences := map[string]int{}
	seen := fingerprints{}
	results := make([]SARIFResult, 0, len(findings))
	for i, f := range findings {
		idx := addRule(f.Rule)
		p := f.Publish.Position
		uri := baseline.Rel(base, p.Filename)
		text := lines.line(p.Filename, p.Line)
		msg := f.Message
		if f.Write != nil {
			msg += fmt.Sprintf(" (DB write at %s:%d)", baseline.Rel(base, f.Write.Position.Filename), f.Write.Position.Line)
		}
		res := SARIFResult{
			RuleID: f.Rule, RuleIndex: idx, Level: driver.Rules[idx].DefaultConfiguration.Level,
			Message: SARIFText{Text: msg},
			Locations: []SARIFLocation{{PhysicalLocation: SARIFPhysical{
				ArtifactLocation: artifact(uri),
				Region:           SARIFRegion{StartLine: p.Line, StartColumn: utf16Column(text, p.Column)},
			}}},
			BaselineState: bl.state(i),
		}
		if f.Write != nil {
			wp := f.Write.Position
			res.RelatedLocations = []SARIFLocation{{
				ID: 1,
				PhysicalLocation: SARIFPhysical{
					ArtifactLocation: artifact(baseline.Rel(base, wp.Filename)),
					Region:           SARIFRegion{StartLine: wp.Line, StartColumn: utf16Column(lines.line(wp.Filename, wp.Line), wp.Column)},
				},
				Message: &SARIFText{Text: "DB write: " + f.Write.Name},
			}}
		}
		if f.Fingerprint != "" {
			// the scan's fingerprint, as in the baseline: stable across
			// line moves, renamed locals and edits elsewhere
			res.PartialFingerprints = map[string]string{FingerprintKey: seen.next(f.Fingerprint)}
		} else {
			// findings from elsewhere (no fingerprint): the hash covers
			// the rule, the file and the trimmed source line, not the line
			// number; equal lines are told apart by their occurrence count.
			h := lineHash(f.Rule, uri, text)
			occurrences[h]++
			res.PartialFingerprints = map[string]string{
				"primaryLocationLineHash": fmt.Sprintf("%s:%d", h, occurrences[h]),
			}
		}
		results = append(results, res)
	}
	if bl != nil {
		for _, g := range bl.Gone {
			idx := addRule(g.Rule)
			for _, l := range g.Places() {
				results = append(results, SARIFResult{
					RuleID: g.Rule, RuleIndex: idx, Level: "none", Kind: "pass",
					Message: SARIFText{Text: g.Message + " (in the baseline, no longer found)"},
					Locations: []SARIFLocation{{PhysicalLocation: SARIFPhysical{
						ArtifactLocation: artifact(l.File),
						Region:           SARIFRegion{StartLine: max(l.Line, 1)},
					}}},
					PartialFingerprints: map[string]string{FingerprintKey: seen.next(g.Fingerprint)},
					BaselineState:       baseline.Absent,
				})
			}
		}
	}
	log := SARIFLog{
		Schema: SARIFSchema, Version: SARIFVersion,
		Runs: []SARIFRun{{
			Tool:       SARIFTool{Driver: driver},
			ColumnKind: "utf16CodeUnits",
			Results:    results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// artifact locates a file: relative to SrcRoot, or (a file outside -C,
// such as a dependency scanned by import path) an absolute file URI.
func artifact(path string) SARIFArtifact {
	if filepath.IsAbs(filepath.FromSlash(path)) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path // a Windows drive letter
		}
		return SARIFArtifact{URI: (&url.URL{Scheme: "file", Path: path}).String()}
	}
	return SARIFArtifact{URI: path, URIBaseID: SrcRoot}
}

func lineHash(rule, uri, text string) string {
	sum := sha256.Sum256([]byte(rule + "\x00" + uri + "\x00" + strings.Join(strings.Fields(text), " ")))
	return hex.EncodeToString(sum[:8])
}

// utf16Column converts a 1-based byte column on line to UTF-16 code units.
func utf16Column(line string, byteCol int) int {
	if byteCol <= 1 || line == "" {
		return byteCol
	}
	prefix := line
	if byteCol-1 < len(line) {
		prefix = line[:byteCol-1]
	}
	n := 0
	for len(prefix) > 0 {
		r, size := utf8.DecodeRuneInString(prefix)
		prefix = prefix[size:]
		n += len(utf16.Encode([]rune{r}))
	}
	return n + 1
}

// stripMarkdown turns the help Markdown into plain text (code spans only).
func stripMarkdown(s string) string { return strings.ReplaceAll(s, "`", "") }

// lineCache reads source lines, each file once.
type lineCache map[string][]string

func (c lineCache) line(filename string, n int) string {
	ls, ok := c[filename]
	if !ok {
		if f, err := os.Open(filename); err == nil {
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
			for sc.Scan() {
				ls = append(ls, sc.Text())
			}
			f.Close()
		}
		c[filename] = ls
	}
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}
