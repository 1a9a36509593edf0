package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FixesFile is where `outboxify fix` records what it replaced, relative to
// the module root.
const FixesFile = ".outboxify/fixes.json"

// Location is a module-relative, slash-separated file position.
type Location struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

func (l Location) String() string { return fmt.Sprintf("%s:%d", l.File, l.Line) }

// Replacement is one dual write that fix replaced with an outbox insert.
type Replacement struct {
	Rule   string   `json:"rule"`
	Call   string   `json:"call"`
	Before Location `json:"before"`
	After  Location `json:"after"`
}

// Manual is a finding fix left for a person.
type Manual struct {
	Rule   string `json:"rule"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	Advice string `json:"advice"`
}

// fixes is the file contract shared with `fix`.
type fixes struct {
	Replaced []Replacement `json:"replaced"`
	Manual   []Manual      `json:"manual"`
}

// readFixes reads root/.outboxify/fixes.json; ok is false when it does not exist.
func readFixes(root string) (f fixes, ok bool, err error) {
	b, err := os.ReadFile(filepath.Join(root, FixesFile))
	if errors.Is(err, fs.ErrNotExist) {
		return fixes{}, false, nil
	}
	if err != nil {
		return fixes{}, false, fmt.Errorf("report: %w", err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return fixes{}, false, fmt.Errorf("report: %s: %w", FixesFile, err)
	}
	return f, true, nil
}
