// Package shapes holds the shapes of large products that scan must handle
// (issue 23), at a size that shows in the benchmark: a route-setup function
// registering 40 HTTP handlers as closures (some write, some publish, every
// fifth does both), a domain-event dispatcher whose handlers are registered
// at start-up and run synchronously by Dispatch, and mutually recursive
// functions. Written by hand for the benchmark; scan must report only the
// handlers that both write and publish and the dispatching services.
package shapes

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/nats-io/nats.go"
)

// API holds the handles the handlers use.
type API struct {
	db *sql.DB
	nc *nats.Conn
}

// Routes registers every handler: registering is not running, so this
// function has no finding of its own.
func (a *API) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/items/0", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if _, err := a.db.ExecContext(ctx, `UPDATE items SET n = n + 1 WHERE id = $1`, 0); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = a.nc.Publish("items.changed.0", []byte("x"))
	})
	mux.HandleFunc("/items/1", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.1", []byte("x"))
	})
	mux.HandleFunc("/items/2", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 2); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/3", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.3", []byte("x"))
	})
	mux.HandleFunc("/items/4", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 4); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/5", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if _, err := a.db.ExecContext(ctx, `UPDATE items SET n = n + 1 WHERE id = $1`, 5); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = a.nc.Publish("items.changed.5", []byte("x"))
	})
	mux.HandleFunc("/items/6", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 6); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/7", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.7", []byte("x"))
	})
	mux.HandleFunc("/items/8", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 8); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/9", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.9", []byte("x"))
	})
	mux.HandleFunc("/items/10", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if _, err := a.db.ExecContext(ctx, `UPDATE items SET n = n + 1 WHERE id = $1`, 10); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = a.nc.Publish("items.changed.10", []byte("x"))
	})
	mux.HandleFunc("/items/11", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.11", []byte("x"))
	})
	mux.HandleFunc("/items/12", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 12); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/13", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.13", []byte("x"))
	})
	mux.HandleFunc("/items/14", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 14); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/15", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if _, err := a.db.ExecContext(ctx, `UPDATE items SET n = n + 1 WHERE id = $1`, 15); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = a.nc.Publish("items.changed.15", []byte("x"))
	})
	mux.HandleFunc("/items/16", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 16); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/17", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.17", []byte("x"))
	})
	mux.HandleFunc("/items/18", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 18); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/19", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.19", []byte("x"))
	})
	mux.HandleFunc("/items/20", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if _, err := a.db.ExecContext(ctx, `UPDATE items SET n = n + 1 WHERE id = $1`, 20); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = a.nc.Publish("items.changed.20", []byte("x"))
	})
	mux.HandleFunc("/items/21", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.21", []byte("x"))
	})
	mux.HandleFunc("/items/22", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 22); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/23", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.23", []byte("x"))
	})
	mux.HandleFunc("/items/24", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 24); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/25", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if _, err := a.db.ExecContext(ctx, `UPDATE items SET n = n + 1 WHERE id = $1`, 25); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = a.nc.Publish("items.changed.25", []byte("x"))
	})
	mux.HandleFunc("/items/26", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 26); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/27", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.27", []byte("x"))
	})
	mux.HandleFunc("/items/28", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 28); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/29", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.29", []byte("x"))
	})
	mux.HandleFunc("/items/30", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if _, err := a.db.ExecContext(ctx, `UPDATE items SET n = n + 1 WHERE id = $1`, 30); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = a.nc.Publish("items.changed.30", []byte("x"))
	})
	mux.HandleFunc("/items/31", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.31", []byte("x"))
	})
	mux.HandleFunc("/items/32", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 32); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/33", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.33", []byte("x"))
	})
	mux.HandleFunc("/items/34", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 34); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/35", func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		if _, err := a.db.ExecContext(ctx, `UPDATE items SET n = n + 1 WHERE id = $1`, 35); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		_ = a.nc.Publish("items.changed.35", []byte("x"))
	})
	mux.HandleFunc("/items/36", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 36); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/37", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.37", []byte("x"))
	})
	mux.HandleFunc("/items/38", func(w http.ResponseWriter, r *http.Request) {
		if _, err := a.db.ExecContext(r.Context(), `DELETE FROM items WHERE id = $1`, 38); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	mux.HandleFunc("/items/39", func(w http.ResponseWriter, r *http.Request) {
		_ = a.nc.Publish("items.viewed.39", []byte("x"))
	})
}

// Event is a domain event.
type Event struct{ Name, ID string }

// Dispatcher runs the handlers registered for an event, in the caller's
// request.
type Dispatcher struct {
	handlers map[string][]func(context.Context, Event) error
}

// Register stores a handler for an event name.
func (d *Dispatcher) Register(name string, h func(context.Context, Event) error) {
	if d.handlers == nil {
		d.handlers = map[string][]func(context.Context, Event) error{}
	}
	d.handlers[name] = append(d.handlers[name], h)
}

// Dispatch runs the stored handlers of each event now.
func (d *Dispatcher) Dispatch(ctx context.Context, evs ...Event) error {
	for _, e := range evs {
		for _, h := range d.handlers[e.Name] {
			if err := h(ctx, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// Wire registers the event handlers at start-up; one forwards to the broker.
func Wire(d *Dispatcher, nc *nats.Conn) {
	d.Register("e0", func(ctx context.Context, e Event) error { return nil })
	d.Register("e1", func(ctx context.Context, e Event) error { return nil })
	d.Register("e2", func(ctx context.Context, e Event) error { return nil })
	d.Register("e3", func(ctx context.Context, e Event) error { return nil })
	d.Register("e4", func(ctx context.Context, e Event) error { return nil })
	d.Register("e5", func(ctx context.Context, e Event) error { return nil })
	d.Register("e6", func(ctx context.Context, e Event) error { return nil })
	d.Register("e7", func(ctx context.Context, e Event) error { return nc.Publish("events."+e.Name, []byte(e.ID)) })
	d.Register("e8", func(ctx context.Context, e Event) error { return nil })
	d.Register("e9", func(ctx context.Context, e Event) error { return nil })
	d.Register("e10", func(ctx context.Context, e Event) error { return nil })
	d.Register("e11", func(ctx context.Context, e Event) error { return nil })
	d.Register("e12", func(ctx context.Context, e Event) error { return nil })
	d.Register("e13", func(ctx context.Context, e Event) error { return nil })
	d.Register("e14", func(ctx context.Context, e Event) error { return nil })
	d.Register("e15", func(ctx context.Context, e Event) error { return nil })
	d.Register("e16", func(ctx context.Context, e Event) error { return nil })
	d.Register("e17", func(ctx context.Context, e Event) error { return nil })
	d.Register("e18", func(ctx context.Context, e Event) error { return nil })
	d.Register("e19", func(ctx context.Context, e Event) error { return nil })
}

// Service0 saves an aggregate and dispatches its events.
type Service0 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service0) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg0 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service1 saves an aggregate and dispatches its events.
type Service1 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service1) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg1 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service2 saves an aggregate and dispatches its events.
type Service2 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service2) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg2 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service3 saves an aggregate and dispatches its events.
type Service3 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service3) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg3 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service4 saves an aggregate and dispatches its events.
type Service4 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service4) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg4 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service5 saves an aggregate and dispatches its events.
type Service5 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service5) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg5 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service6 saves an aggregate and dispatches its events.
type Service6 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service6) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg6 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service7 saves an aggregate and dispatches its events.
type Service7 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service7) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg7 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service8 saves an aggregate and dispatches its events.
type Service8 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service8) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg8 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service9 saves an aggregate and dispatches its events.
type Service9 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service9) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg9 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service10 saves an aggregate and dispatches its events.
type Service10 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service10) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg10 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service11 saves an aggregate and dispatches its events.
type Service11 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service11) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg11 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service12 saves an aggregate and dispatches its events.
type Service12 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service12) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg12 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service13 saves an aggregate and dispatches its events.
type Service13 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service13) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg13 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service14 saves an aggregate and dispatches its events.
type Service14 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service14) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg14 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service15 saves an aggregate and dispatches its events.
type Service15 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service15) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg15 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service16 saves an aggregate and dispatches its events.
type Service16 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service16) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg16 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service17 saves an aggregate and dispatches its events.
type Service17 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service17) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg17 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service18 saves an aggregate and dispatches its events.
type Service18 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service18) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg18 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// Service19 saves an aggregate and dispatches its events.
type Service19 struct {
	db *sql.DB
	d  *Dispatcher
}

// Save writes, then dispatches e7, whose handler publishes: a dual write.
func (s *Service19) Save(ctx context.Context, id string) error {
	if _, err := s.db.ExecContext(ctx, `INSERT INTO agg19 (id) VALUES ($1)`, id); err != nil {
		return err
	}
	return s.d.Dispatch(ctx, Event{Name: "e7", ID: id})
}

// walkA0 and walkB0 recurse into each other; only walkB0 writes and
// only the caller publishes.
func walkA0(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB0(ctx, db, n-1)
}

func walkB0(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA0(ctx, db, n-1)
}

// Rebuild0 walks the tree and announces it.
func Rebuild0(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA0(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}

// walkA1 and walkB1 recurse into each other; only walkB1 writes and
// only the caller publishes.
func walkA1(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB1(ctx, db, n-1)
}

func walkB1(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA1(ctx, db, n-1)
}

// Rebuild1 walks the tree and announces it.
func Rebuild1(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA1(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}

// walkA2 and walkB2 recurse into each other; only walkB2 writes and
// only the caller publishes.
func walkA2(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB2(ctx, db, n-1)
}

func walkB2(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA2(ctx, db, n-1)
}

// Rebuild2 walks the tree and announces it.
func Rebuild2(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA2(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}

// walkA3 and walkB3 recurse into each other; only walkB3 writes and
// only the caller publishes.
func walkA3(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB3(ctx, db, n-1)
}

func walkB3(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA3(ctx, db, n-1)
}

// Rebuild3 walks the tree and announces it.
func Rebuild3(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA3(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}

// walkA4 and walkB4 recurse into each other; only walkB4 writes and
// only the caller publishes.
func walkA4(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB4(ctx, db, n-1)
}

func walkB4(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA4(ctx, db, n-1)
}

// Rebuild4 walks the tree and announces it.
func Rebuild4(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA4(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}

// walkA5 and walkB5 recurse into each other; only walkB5 writes and
// only the caller publishes.
func walkA5(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB5(ctx, db, n-1)
}

func walkB5(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA5(ctx, db, n-1)
}

// Rebuild5 walks the tree and announces it.
func Rebuild5(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA5(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}

// walkA6 and walkB6 recurse into each other; only walkB6 writes and
// only the caller publishes.
func walkA6(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB6(ctx, db, n-1)
}

func walkB6(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA6(ctx, db, n-1)
}

// Rebuild6 walks the tree and announces it.
func Rebuild6(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA6(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}

// walkA7 and walkB7 recurse into each other; only walkB7 writes and
// only the caller publishes.
func walkA7(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB7(ctx, db, n-1)
}

func walkB7(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA7(ctx, db, n-1)
}

// Rebuild7 walks the tree and announces it.
func Rebuild7(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA7(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}

// walkA8 and walkB8 recurse into each other; only walkB8 writes and
// only the caller publishes.
func walkA8(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB8(ctx, db, n-1)
}

func walkB8(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA8(ctx, db, n-1)
}

// Rebuild8 walks the tree and announces it.
func Rebuild8(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA8(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}

// walkA9 and walkB9 recurse into each other; only walkB9 writes and
// only the caller publishes.
func walkA9(ctx context.Context, db *sql.DB, n int) error {
	if n == 0 {
		return nil
	}
	return walkB9(ctx, db, n-1)
}

func walkB9(ctx context.Context, db *sql.DB, n int) error {
	if _, err := db.ExecContext(ctx, `UPDATE tree SET depth = $1`, n); err != nil {
		return err
	}
	return walkA9(ctx, db, n-1)
}

// Rebuild9 walks the tree and announces it.
func Rebuild9(ctx context.Context, db *sql.DB, nc *nats.Conn) error {
	if err := walkA9(ctx, db, 8); err != nil {
		return err
	}
	return nc.Publish("tree.rebuilt", nil)
}
