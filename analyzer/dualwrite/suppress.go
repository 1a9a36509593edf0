package dualwrite

import (
	"go/ast"
	"go/token"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A suppression is an //outboxify:ignore [RULE] reason comment.
type suppression struct {
	pos    token.Pos
	line   int
	rule   string // "" matches every rule
	reason string
	used   bool
}

type suppressions struct {
	file  *token.File
	items []*suppression
}

const directive = "//outboxify:ignore"

var ruleID = regexp.MustCompile(`^OBX\d{3}$`)

func parseSuppressions(fset *token.FileSet, f *ast.File) *suppressions {
	s := &suppressions{file: fset.File(f.Pos())}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if !strings.HasPrefix(c.Text, directive) {
				continue
			}
			rest := strings.TrimPrefix(c.Text, directive)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = rest[:i] // a trailing comment is not part of the reason
			}
			if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
				continue // //outboxify:ignored... is another word
			}
			fields := strings.Fields(rest)
			it := &suppression{pos: c.Pos(), line: s.file.Line(c.Pos())}
			if len(fields) > 0 && ruleID.MatchString(fields[0]) {
				it.rule, fields = fields[0], fields[1:]
			}
			it.reason = strings.Join(fields, " ")
			s.items = append(s.items, it)
		}
	}
	return s
}

// suppressed reports whether a finding is suppressed on its line, the line
// above, or the doc comment of its function; it marks the suppression used.
func (s *suppressions) suppressed(fset *token.FileSet, f *Finding, decl *ast.FuncDecl) bool {
	if s == nil || len(s.items) == 0 {
		return false
	}
	line := s.file.Line(f.Publish.Pos)
	for _, it := range s.items {
		if it.reason == "" || it.rule != "" && it.rule != f.Rule {
			continue
		}
		onLine := it.line == line || it.line == line-1
		onFunc := decl != nil && decl.Doc != nil && decl.Doc.Pos() <= it.pos && it.pos < decl.Doc.End()
		if onLine || onFunc {
			it.used = true
			return true
		}
	}
	return false
}

// apply reports reasonless and unused suppressions of file f as OBX900
// findings and returns the findings.
func (s *suppressions) apply(pass *analysis.Pass, findings []Finding, f *ast.File) []Finding {
	for _, it := range s.items {
		var msg string
		switch {
		case it.reason == "":
			msg = "//outboxify:ignore needs a reason: say why this publish is not a dual write"
		case !it.used:
			msg = "//outboxify:ignore matches no finding: remove it"
			if it.rule != "" {
				msg = "//outboxify:ignore " + it.rule + " matches no finding: remove it"
			}
		default:
			continue
		}
		findings = append(findings, Finding{Rule: RuleUnusedSuppress, Message: msg,
			Publish: Call{Pos: it.pos, Position: pass.Fset.Position(it.pos), Name: directive}})
	}
	return findings
}
