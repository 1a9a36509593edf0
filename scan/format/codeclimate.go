package format

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
	"github.com/outboxify/outboxify/scan/baseline"
)

// CodeClimateIssue is one issue of a Code Climate report, the subset GitLab
// code quality reads (description, check_name, fingerprint, severity,
// location.path, location.lines.begin).
type CodeClimateIssue struct {
	Type        string              `json:"type"`
	CheckName   string              `json:"check_name"`
	Description string              `json:"description"`
	Categories  []string            `json:"categories"`
	Severity    string              `json:"severity"`
	Fingerprint string              `json:"fingerprint"`
	Location    CodeClimateLocation `json:"location"`
}

// CodeClimateLocation is a path (relative to the repository root, which
// -C is in CI) and its lines.
type CodeClimateLocation struct {
	Path  string           `json:"path"`
	Lines CodeClimateLines `json:"lines"`
}

// CodeClimateLines is the line range; outboxify reports one line.
type CodeClimateLines struct {
	Begin int `json:"begin"`
	End   int `json:"end,omitempty"`
}

// CodeClimate writes the findings as a Code Climate JSON array (GitLab's
// artifacts:reports:codequality). The fingerprint is the finding's, with
// ":n" for the n-th identical one; findings without one (not from scan)
// get a hash of rule, file, function and calls.
func CodeClimate(w io.Writer, base string, findings []dualwrite.Finding) error {
	issues := make([]CodeClimateIssue, 0, len(findings))
	seen := fingerprints{}
	for _, f := range findings {
		p := f.Publish.Position
		file := baseline.Rel(base, p.Filename)
		msg := f.Message
		if f.Write != nil {
			msg += fmt.Sprintf(" (DB write at %s:%d)", baseline.Rel(base, f.Write.Position.Filename), f.Write.Position.Line)
		}
		fp := f.Fingerprint
		if fp == "" {
			fp = fallbackFingerprint(f, file)
		}
		issues = append(issues, CodeClimateIssue{
			Type: "issue", CheckName: f.Rule, Description: f.Rule + " " + msg,
			Categories: []string{"Bug Risk"}, Severity: codeClimateSeverity(ruleDoc(f.Rule).Level),
			Fingerprint: seen.next(fp),
			Location:    CodeClimateLocation{Path: file, Lines: CodeClimateLines{Begin: p.Line, End: p.Line}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(issues)
}

// codeClimateSeverity maps a SARIF level onto Code Climate's severities
// (info, minor, major, critical, blocker).
func codeClimateSeverity(level string) string {
	switch level {
	case "error":
		return "major"
	case "warning":
		return "minor"
	}
	return "info"
}

func fallbackFingerprint(f dualwrite.Finding, file string) string {
	w := ""
	if f.Write != nil {
		w = f.Write.Name
	}
	sum := sha256.Sum256([]byte(f.Rule + "\x00" + file + "\x00" + f.Func + "\x00" + f.Publish.Name + "\x00" + w))
	return hex.EncodeToString(sum[:12])
}
