package rewrite

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/rogpeppe/go-internal/diff"
)

// WriteFiles writes every edited file atomically (a temp file in the same
// directory renamed over the original, keeping its mode). A file that
// changed on disk since it was loaded, or cannot be written, is dropped
// from res (its findings become manual) and the others are still written.
// It returns the files it could not write.
func WriteFiles(res *Result) []error {
	var errs []error
	for _, f := range append([]*FileEdit(nil), res.Files...) {
		if err := writeAtomic(f); err != nil {
			errs = append(errs, err)
			res.Drop(f, err.Error())
		}
	}
	return errs
}

func writeAtomic(f *FileEdit) error {
	fi, err := os.Stat(f.Path)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Path, err)
	}
	cur, err := os.ReadFile(f.Path)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Path, err)
	}
	if !bytes.Equal(cur, f.Before) {
		return fmt.Errorf("cannot write %s: it changed on disk since it was loaded", f.Path)
	}
	// A read-only file is refused as the user meant it, even though the
	// rename would succeed in a writable directory.
	if fi.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("cannot write %s: the file is read-only", f.Path)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.Path), "."+filepath.Base(f.Path)+".outboxify-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Path, err)
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(f.After); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", f.Path, err)
	}
	if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
		tmp.Close()
		return fmt.Errorf("cannot write %s: %w", f.Path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Path, err)
	}
	if err := os.Rename(tmp.Name(), f.Path); err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Path, err)
	}
	return nil
}

// Diff writes a unified diff of every edited file, paths relative to root.
func Diff(w io.Writer, root string, res *Result) error {
	files := append([]*FileEdit(nil), res.Files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		rel := DisplayPath(root, f.Path)
		if _, err := w.Write(diff.Diff("a/"+rel, f.Before, "b/"+rel, f.After)); err != nil {
			return err
		}
	}
	return nil
}

// Text writes the human summary: what was replaced (file:line before ->
// after) and what was left, with reasons.
func Text(w io.Writer, root string, res *Result) {
	reps := res.Replaced()
	if len(reps) > 0 {
		fmt.Fprintf(w, "replaced %d publish(es) with outbox inserts:\n", len(reps))
		for _, r := range reps {
			fmt.Fprintf(w, "  %s:%d -> %s:%d %s %s (%s)\n", DisplayPath(root, r.Before.File), r.Before.Line,
				DisplayPath(root, r.After.File), r.After.Line, r.Rule, r.Call, r.Strategy)
			for _, b := range r.Behaviour {
				fmt.Fprintf(w, "    changes: %s\n", b)
			}
			for _, n := range r.Notes {
				fmt.Fprintf(w, "    note: %s\n", n)
			}
		}
	}
	if len(res.Manual) > 0 {
		fmt.Fprintf(w, "left %d finding(s) for a person:\n", len(res.Manual))
		for _, m := range SortedManual(res) {
			fmt.Fprintf(w, "  %s:%d %s: %s\n    advice: %s\n", DisplayPath(root, m.File), m.Line, m.Rule, m.Reason, m.Advice)
		}
	}
	if res.Skipped > 0 {
		fmt.Fprintf(w, "skipped %d finding(s) in files outboxify generated\n", res.Skipped)
	}
	if len(reps) == 0 && len(res.Manual) == 0 && res.Skipped == 0 {
		fmt.Fprintln(w, "nothing to fix")
	}
}

// SortedManual returns res.Manual by file and line.
func SortedManual(res *Result) []Manual {
	m := append([]Manual(nil), res.Manual...)
	sort.SliceStable(m, func(i, j int) bool {
		if m[i].File != m[j].File {
			return m[i].File < m[j].File
		}
		return m[i].Line < m[j].Line
	})
	return m
}
