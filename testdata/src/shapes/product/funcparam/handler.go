package funcparam

import (
	"context"
	"net/http"
)

type Generations interface {
	PublishInTx(ctx context.Context, id int64, publishFn func(id int64) error) error
}

type Service struct {
	gens  Generations
	store *Store
}

// Meter hands the publish to the store's transaction (no write of its own
// here: the dual write is inside PublishInTx).
func (s *Service) Meter(ctx context.Context, id int64) error {
	return s.gens.PublishInTx(ctx, id, func(id int64) error {
		return s.store.Announce(ctx, "metered")
	})
}

// HandleMarkPublished builds the PATCH handler from the store's methods:
// the handler records the audit event (through a helper given the
// function), then announces the file. A dual write in the handler (CLI).
func HandleMarkPublished(markPublished func(ctx context.Context, id string) error, createEvent func(ctx context.Context, id string) error) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ctx := req.Context()
		id := req.URL.Path
		if err := audit(ctx, createEvent, id); err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		if err := markPublished(ctx, id); err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	}
}

// HandleTouch logs through its hook after the audit event: the hook only
// logs, no finding.
func HandleTouch(hook func(ctx context.Context, id string) error, createEvent func(ctx context.Context, id string) error) http.HandlerFunc {
	return func(w http.ResponseWriter, req *http.Request) {
		ctx := req.Context()
		_ = audit(ctx, createEvent, req.URL.Path)
		_ = hook(ctx, req.URL.Path)
	}
}

func audit(ctx context.Context, create func(ctx context.Context, id string) error, id string) error {
	return create(ctx, id)
}

// Routes wires the handlers: registering is not running (no finding here).
func Routes(mux *http.ServeMux, s *Store) {
	mux.Handle("/files/publish", HandleMarkPublished(s.Announce, s.CreateEvent))
	mux.Handle("/files/touch", HandleTouch(logOnly, s.CreateEvent))
}

// Upload and Import share SaveThen's hook: one publishes, one logs.
func Upload(ctx context.Context, s *Store, id string) error {
	return s.SaveThen(ctx, id, s.Announce)
}

func Import(ctx context.Context, s *Store, id string) error {
	return s.SaveThen(ctx, id, logOnly)
}
