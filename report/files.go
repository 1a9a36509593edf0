package report

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// tree is the module's files that the detectors read: paths relative to
// the root, slash-separated, sorted. Nested modules (but the relay module
// outboxify generated), vendor, testdata and hidden directories are not
// part of the module.
type tree struct {
	root  string
	files []string
	cache map[string]string
}

func walkTree(root string) (*tree, error) {
	t := &tree{root: root, cache: map[string]string{}}
	generated := generatedModules(root)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == root {
				return nil
			}
			name := d.Name()
			if name == "vendor" || name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				if rel, _ := filepath.Rel(root, p); !generated[filepath.ToSlash(rel)] {
					return filepath.SkipDir // another module, not the relay module outboxify generated
				}
			}
			return nil
		}
		if info, err := d.Info(); err == nil && info.Size() > 4<<20 {
			return nil // not source or config
		}
		rel, _ := filepath.Rel(root, p)
		t.files = append(t.files, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(t.files)
	return t, err
}

func (t *tree) read(rel string) string {
	if s, ok := t.cache[rel]; ok {
		return s
	}
	b, _ := os.ReadFile(filepath.Join(t.root, filepath.FromSlash(rel)))
	t.cache[rel] = string(b)
	return t.cache[rel]
}

// match is a regexp hit in a file.
type match struct {
	File   string
	Line   int
	Groups []string
}

func (m match) loc() Location { return Location{File: m.File, Line: m.Line} }

// find returns the first hit of re in the files accepted by keep.
func (t *tree) find(keep func(string) bool, re *regexp.Regexp) (match, bool) {
	all := t.findAll(keep, re, 1)
	if len(all) == 0 {
		return match{}, false
	}
	return all[0], true
}

func (t *tree) findAll(keep func(string) bool, re *regexp.Regexp, limit int) []match {
	var out []match
	for _, f := range t.files {
		if !keep(f) {
			continue
		}
		s := t.read(f)
		for _, ix := range re.FindAllStringSubmatchIndex(s, -1) {
			m := match{File: f, Line: 1 + strings.Count(s[:ix[0]], "\n")}
			for g := 0; g < len(ix); g += 2 {
				if ix[g] >= 0 {
					m.Groups = append(m.Groups, s[ix[g]:ix[g+1]])
				} else {
					m.Groups = append(m.Groups, "")
				}
			}
			out = append(out, m)
			if limit > 0 && len(out) >= limit {
				return out
			}
		}
	}
	return out
}

// File kinds.
func isGo(f string) bool   { return strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") }
func isSQL(f string) bool  { return strings.HasSuffix(f, ".sql") }
func isYAML(f string) bool { return strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".yml") }
func isMarkdown(f string) bool {
	return strings.HasSuffix(strings.ToLower(f), ".md")
}

// isConfig: files that deploy or configure a process (flags, env, cron).
func isConfig(f string) bool {
	base := strings.ToLower(filepath.Base(f))
	switch filepath.Ext(base) {
	case ".yaml", ".yml", ".json", ".env", ".service", ".conf", ".toml", ".sh", ".properties", ".hcl", ".timer", ".crontab", ".cron":
		return true
	}
	return base == "procfile" || base == "makefile" || base == "dockerfile" || strings.HasPrefix(base, "dockerfile.") ||
		strings.HasPrefix(base, ".env") || base == "crontab"
}

// inDir reports whether file f is in directory dir (or below it).
func inDir(dir string) func(string) bool {
	return func(f string) bool { return dir != "" && strings.HasPrefix(f, dir+"/") }
}

func and(a, b func(string) bool) func(string) bool {
	return func(f string) bool { return a(f) && b(f) }
}

func not(a func(string) bool) func(string) bool { return func(f string) bool { return !a(f) } }

// generatedModules lists the nested modules outboxify generated (the relay's
// own module): directories whose go.mod the generate manifest records. They
// are part of the service's outbox setup, so the report reads them.
func generatedModules(root string) map[string]bool {
	out := map[string]bool{}
	b, err := os.ReadFile(filepath.Join(root, ".outboxify", "generated.json"))
	if err != nil {
		return out
	}
	var m struct {
		Files map[string]string `json:"files"`
	}
	if json.Unmarshal(b, &m) != nil {
		return out
	}
	for f := range m.Files {
		if path.Base(f) == "go.mod" && path.Dir(f) != "." {
			out[path.Dir(f)] = true
		}
	}
	return out
}
