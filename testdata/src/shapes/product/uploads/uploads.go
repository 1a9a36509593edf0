// Package uploads has a package registry's index build: each generated file
// is uploaded by a call that stores the file's row and announces it itself.
// Three such calls in a row are three self-contained pairs, each reported
// in the callee, not the first's write with the second's event. A call that
// writes and announces, followed by the caller's own publish about it
// (a UI notification), is still a second event on the same write; so is a
// self-contained call given what the first returned (index the artifact
// the upload created).
package uploads

import (
	"context"
	"database/sql"

	"github.com/nats-io/nats.go"
)

type Files struct {
	db *sql.DB
	nc *nats.Conn
}

func (f *Files) PostFileUpload(ctx context.Context, path string) error {
	if _, err := f.db.ExecContext(ctx, "INSERT INTO files (path) VALUES ($1)", path); err != nil {
		return err
	}
	return f.nc.Publish("file.uploaded", []byte(path)) // want "OBX001"
}

type Helper struct {
	files *Files
	nc    *nats.Conn
}

func (h *Helper) BuildIndex(ctx context.Context, repo string) error {
	if err := h.files.PostFileUpload(ctx, repo+"/primary.xml"); err != nil {
		return err
	}
	if err := h.files.PostFileUpload(ctx, repo+"/filelists.xml"); err != nil {
		return err
	}
	return h.files.PostFileUpload(ctx, repo+"/other.xml")
}

func (h *Helper) UploadAndNotify(ctx context.Context, path string) error {
	if err := h.files.PostFileUpload(ctx, path); err != nil {
		return err
	}
	return h.nc.Publish("ui.refresh", []byte(path)) // want "OBX001"
}

type Artifacts struct {
	db *sql.DB
	nc *nats.Conn
}

func (a *Artifacts) CreateArtifact(ctx context.Context, path string) (int64, error) {
	var id int64
	if err := a.db.QueryRowContext(ctx, "INSERT INTO artifacts (path) VALUES ($1) RETURNING id", path).Scan(&id); err != nil {
		return 0, err
	}
	return id, a.nc.Publish("artifact.replicate", []byte(path)) // want "OBX001"
}

func (a *Artifacts) BuildIndex(ctx context.Context, sources []int64) {
	if _, err := a.db.ExecContext(ctx, "INSERT INTO tasks (sources) VALUES ($1)", sources); err != nil {
		return
	}
	_ = a.nc.Publish("task.index", nil) // want "OBX001"
}

func UploadPackage(ctx context.Context, a *Artifacts, path string) error {
	id, err := a.CreateArtifact(ctx, path)
	if err != nil {
		return err
	}
	sources := make([]int64, 0)
	sources = append(sources, id)
	a.BuildIndex(ctx, sources) // want "OBX001"
	return nil
}
