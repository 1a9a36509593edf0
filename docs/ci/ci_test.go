// Package ci_test checks the CI templates in this directory: the GitHub
// Actions workflow passes actionlint, and what actionlint cannot see is
// asserted here.
package ci_test

import (
	"os"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"gopkg.in/yaml.v3"
)

func TestGitHubActionsActionlint(t *testing.T) {
	l, err := actionlint.NewLinter(os.Stderr, &actionlint.LinterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFile("github-actions.yml", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("actionlint: %s", e.Error())
	}
}

type workflow struct {
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		Permissions map[string]string `yaml:"permissions"`
		Steps       []struct {
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestGitHubActionsNeeds: a job running --new-from-rev checks out the full
// history (fetch-depth: 0); a job uploading SARIF may write security events.
func TestGitHubActionsNeeds(t *testing.T) {
	var wf workflow
	data, err := os.ReadFile("github-actions.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	var sawRev, sawSARIF, sawBaseline, sawSummary, sawAnnotations bool
	for name, job := range wf.Jobs {
		var newFromRev, upload, fullHistory bool
		for _, s := range job.Steps {
			if strings.Contains(s.Run, "--new-from-rev") {
				newFromRev = true
			}
			if strings.Contains(s.Run, "--baseline ") {
				sawBaseline = true
			}
			if strings.Contains(s.Run, "--new-from-rev") && strings.Contains(s.Run, "--format github-actions") {
				sawAnnotations = true // the new findings land on the PR's diff
			}
			if strings.Contains(s.Run, "fix --diff") && strings.Contains(s.Run, "GITHUB_STEP_SUMMARY") {
				sawSummary = true
			}
			if strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") {
				upload = true
				if s.With["sarif_file"] == "" {
					t.Errorf("job %s: upload-sarif without sarif_file", name)
				}
			}
			if strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["fetch-depth"] == "0" {
				fullHistory = true
			}
		}
		if newFromRev && !fullHistory {
			t.Errorf("job %s runs --new-from-rev without actions/checkout fetch-depth: 0", name)
		}
		if upload && job.Permissions["security-events"] != "write" && wf.Permissions["security-events"] != "write" {
			t.Errorf("job %s uploads SARIF without security-events: write", name)
		}
		sawRev = sawRev || newFromRev
		sawSARIF = sawSARIF || upload
	}
	if !sawRev || !sawSARIF || !sawBaseline || !sawSummary || !sawAnnotations {
		t.Errorf("the workflow should show --new-from-rev (%v), a SARIF upload (%v), baseline mode (%v), fix --diff in the job summary (%v) and the new findings as --format github-actions annotations (%v)", sawRev, sawSARIF, sawBaseline, sawSummary, sawAnnotations)
	}
}

// TestGitLabCodeQuality: the job writes a codeclimate report to the file
// it declares as artifacts:reports:codequality, kept when the job fails.
func TestGitLabCodeQuality(t *testing.T) {
	data, err := os.ReadFile("gitlab-ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	var jobs map[string]struct {
		Script    []string `yaml:"script"`
		Variables map[string]string
		Artifacts struct {
			When    string            `yaml:"when"`
			Reports map[string]string `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal(data, &jobs); err != nil {
		t.Fatal(err)
	}
	job, ok := jobs["outboxify"]
	if !ok {
		t.Fatalf("no outboxify job in %v", jobs)
	}
	report := job.Artifacts.Reports["codequality"]
	if report == "" || job.Artifacts.When != "always" {
		t.Fatalf("artifacts = %+v: want reports.codequality, when: always", job.Artifacts)
	}
	var wrote bool
	for _, line := range job.Script {
		if strings.Contains(line, "outboxify scan") && strings.Contains(line, "--format codeclimate") && strings.HasSuffix(strings.TrimSpace(line), "> "+report) {
			wrote = true
		}
		if strings.Contains(line, "--new-from-rev") && job.Variables["GIT_DEPTH"] != "0" {
			t.Errorf("--new-from-rev without GIT_DEPTH: 0")
		}
	}
	if !wrote {
		t.Errorf("no script line writes --format codeclimate to %s: %q", report, job.Script)
	}
}
