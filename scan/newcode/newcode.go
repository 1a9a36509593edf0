// Package newcode tells which source lines changed, from a unified diff
// (a patch file) or from git (the merge-base with a revision against the
// working tree), so a scan can report only findings on changed code.
//
// A change that only deletes lines leaves no line in the new file to point
// at: it cannot be seen this way (deleting a Commit or a transaction's
// opening line can create a dual write that is not reported as new).
package newcode

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Changes are the changed lines of each file, by absolute path (symbolic
// links resolved).
type Changes struct {
	files map[string]*lines
	// Describe names the source ("changes since the merge-base abc123 with main").
	Describe string
}

// lines is a set of changed lines; whole marks a file that is new in full
// (untracked, or added by the patch).
type lines struct {
	whole bool
	set   map[int]bool
}

// Touches reports whether any line from..to (inclusive) of file changed.
func (c *Changes) Touches(file string, from, to int) bool {
	l := c.files[canonical(file)]
	if l == nil {
		return false
	}
	if l.whole {
		return true
	}
	for n := from; n <= to; n++ {
		if l.set[n] {
			return true
		}
	}
	return false
}

// Files lists the changed files (for messages and tests).
func (c *Changes) Files() []string {
	out := make([]string, 0, len(c.files))
	for f := range c.files {
		out = append(out, f)
	}
	return out
}

func (c *Changes) add(file string, line int) {
	l := c.lines(file)
	l.set[line] = true
}

func (c *Changes) lines(file string) *lines {
	if c.files == nil {
		c.files = map[string]*lines{}
	}
	file = canonical(file)
	l := c.files[file]
	if l == nil {
		l = &lines{set: map[int]bool{}}
		c.files[file] = l
	}
	return l
}

// canonical resolves symbolic links in the directory part (go/packages and
// git may see a temporary directory through different names).
func canonical(file string) string {
	dir, base := filepath.Split(file)
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		return filepath.Join(d, base)
	}
	return filepath.Clean(file)
}

// ParsePatch reads a unified diff (git diff, diff -u) and records, for each
// file of the new side, the lines added or changed. Paths are taken
// relative to root; a leading "b/" (git's prefix) is dropped. A renamed
// file counts under its new name with only its changed lines (git diff -M).
func ParsePatch(r io.Reader, root string) (*Changes, error) {
	c := &Changes{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	var (
		file         string // current new-side file, "" when deleted
		gitPrefix    bool   // the file's header was `diff --git`: paths carry a/ b/
		oldLeft      int    // lines of the current hunk still to read
		newLeft      int
		next         int // the new-side line number of the next line
		lineNo       int
		sawHunk      bool
		sawFile      bool
		pendingWhole bool // `new file mode` seen: the file is new in full
	)
	for sc.Scan() {
		lineNo++
		text := sc.Text()
		if oldLeft > 0 || newLeft > 0 {
			switch {
			case strings.HasPrefix(text, "+"):
				if file != "" {
					c.add(filepath.Join(root, file), next)
				}
				next++
				newLeft--
			case strings.HasPrefix(text, "-"):
				oldLeft--
			case strings.HasPrefix(text, " ") || text == "":
				next++
				oldLeft--
				newLeft--
			case strings.HasPrefix(text, `\`): // \ No newline at end of file
			default:
				return nil, fmt.Errorf("patch line %d: %q inside a hunk (the hunk header counts more lines)", lineNo, text)
			}
			continue
		}
		switch {
		case strings.HasPrefix(text, "diff --git "):
			gitPrefix, file, pendingWhole, sawFile = true, "", false, true
			if _, b, ok := splitGitHeader(strings.TrimPrefix(text, "diff --git ")); ok {
				file = stripPrefix(b, true)
			}
		case strings.HasPrefix(text, "new file mode"):
			pendingWhole = true
		case strings.HasPrefix(text, "rename to "):
			file = unquote(strings.TrimPrefix(text, "rename to "))
		case strings.HasPrefix(text, "deleted file mode"):
			file = ""
		case strings.HasPrefix(text, "--- "):
			if !gitPrefix {
				file = ""
			}
		case strings.HasPrefix(text, "+++ "):
			sawFile = true
			name := strings.TrimPrefix(text, "+++ ")
			if i := strings.IndexByte(name, '\t'); i >= 0 && !strings.HasPrefix(name, `"`) {
				name = name[:i] // diff -u puts a date after a tab
			}
			name = unquote(name)
			if name == "/dev/null" {
				file = ""
			} else {
				file = stripPrefix(name, gitPrefix || strings.HasPrefix(name, "b/"))
			}
			if pendingWhole && file != "" {
				c.lines(filepath.Join(root, file)).whole = true
			}
		case strings.HasPrefix(text, "@@ "):
			o, n, start, err := hunkHeader(text)
			if err != nil {
				return nil, fmt.Errorf("patch line %d: %w", lineNo, err)
			}
			oldLeft, newLeft, next, sawHunk = o, n, start, true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if oldLeft > 0 || newLeft > 0 {
		return nil, fmt.Errorf("patch ends inside a hunk (%d old and %d new lines missing): truncated?", oldLeft, newLeft)
	}
	if !sawHunk && !sawFile && lineNo > 0 {
		return nil, errors.New("not a unified diff: no file header and no hunk")
	}
	return c, nil
}

// hunkHeader parses "@@ -a[,b] +c[,d] @@ ...": the old and new line counts
// and the first new line.
func hunkHeader(h string) (oldN, newN, start int, err error) {
	f := strings.Fields(h)
	if len(f) < 4 || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") || f[3] != "@@" {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q", h)
	}
	_, oldN, err = rangeOf(f[1][1:])
	if err != nil {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q: %w", h, err)
	}
	start, newN, err = rangeOf(f[2][1:])
	if err != nil {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q: %w", h, err)
	}
	return oldN, newN, start, nil
}

func rangeOf(s string) (start, n int, err error) {
	a, b, hasCount := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	n = 1
	if hasCount {
		if n, err = strconv.Atoi(b); err != nil {
			return 0, 0, err
		}
	}
	return start, n, nil
}

// splitGitHeader splits "a/x b/x" (either may be quoted) of a diff --git
// line; with spaces in unquoted names it relies on both names being equal.
func splitGitHeader(s string) (a, b string, ok bool) {
	if strings.HasPrefix(s, `"`) {
		end := closingQuote(s)
		if end < 0 {
			return "", "", false
		}
		return unquote(s[:end+1]), unquote(strings.TrimSpace(s[end+1:])), true
	}
	if i := strings.Index(s, ` "`); i >= 0 {
		return s[:i], unquote(s[i+1:]), true
	}
	// "a/p b/p": the halves are equal names but for the prefix
	if n := len(s); n%2 == 1 {
		if a, b := s[:n/2], s[n/2+1:]; len(a) > 2 && len(b) > 2 && a[2:] == b[2:] {
			return a, b, true
		}
	}
	if i := strings.LastIndex(s, " b/"); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return "", "", false
}

func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// unquote decodes git's C-style quoted path ("a\tb", octal escapes for
// non-ASCII bytes); an unquoted path is returned as is.
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b bytes.Buffer
	for i := 1; i < len(s)-1; i++ {
		ch := s[i]
		if ch != '\\' || i+1 >= len(s)-1 {
			b.WriteByte(ch)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3':
			if i+2 < len(s)-1 {
				if v, err := strconv.ParseUint(s[i:i+3], 8, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(e)
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

func stripPrefix(name string, git bool) string {
	if git && (strings.HasPrefix(name, "b/") || strings.HasPrefix(name, "a/")) {
		return name[2:]
	}
	return name
}

// ShallowError is returned when the merge-base is not in a shallow clone's
// history.
type ShallowError struct{ Rev string }

func (e *ShallowError) Error() string {
	return fmt.Sprintf("--new-from-rev %s: this is a shallow clone and the merge-base of %s and HEAD is not in the fetched history: fetch the full history (actions/checkout with fetch-depth: 0, or git fetch --unshallow) so the changed lines can be told", e.Rev, e.Rev)
}

// FromRev collects the lines changed in the working tree of the git
// repository holding dir since the merge-base of rev and HEAD: commits
// since then, staged and unstaged changes, and untracked files (not
// ignored) in full. Renames are followed (git diff -M).
func FromRev(dir, rev string) (*Changes, error) {
	root, err := gitOut(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev: %s is not in a git work tree: %w", dir, err)
	}
	root = strings.TrimSpace(root)
	if _, err := gitOut(root, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("--new-from-rev %s: no such revision in this repository (fetch it first: git fetch origin %s)", rev, rev)
	}
	base, err := gitOut(root, "merge-base", rev, "HEAD")
	if err != nil {
		if shallow, _ := gitOut(root, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(shallow) == "true" {
			return nil, &ShallowError{Rev: rev}
		}
		return nil, fmt.Errorf("--new-from-rev %s: no merge-base with HEAD (unrelated histories?): %w", rev, err)
	}
	base = strings.TrimSpace(base)
	diff, err := gitOut(root, "-c", "core.quotePath=true", "diff", "--no-color", "--no-ext-diff", "--no-textconv",
		"-M", "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", base, "--")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev %s: git diff: %w", rev, err)
	}
	c, err := ParsePatch(strings.NewReader(diff), root)
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev %s: reading git diff: %w", rev, err)
	}
	untracked, err := gitOut(root, "ls-files", "-z", "--others", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("--new-from-rev %s: git ls-files: %w", rev, err)
	}
	for _, f := range strings.Split(untracked, "\x00") {
		if f != "" {
			c.lines(filepath.Join(root, f)).whole = true
		}
	}
	short := base
	if len(short) > 12 {
		short = short[:12]
	}
	c.Describe = fmt.Sprintf("lines changed since %s (the merge-base with %s), uncommitted changes included", short, rev)
	return c, nil
}

// FromPatchFile reads a patch file; its paths are relative to the git
// work tree holding dir, or to dir outside git.
func FromPatchFile(dir, path string) (*Changes, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--new-from-patch: %w", err)
	}
	root := dir
	if top, err := gitOut(dir, "rev-parse", "--show-toplevel"); err == nil {
		root = strings.TrimSpace(top)
	}
	c, err := ParsePatch(bytes.NewReader(data), root)
	if err != nil {
		return nil, fmt.Errorf("--new-from-patch %s: %w", path, err)
	}
	c.Describe = "lines changed by " + path
	return c, nil
}

func gitOut(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return string(out), nil
}
