// Package routes is a route-setup function as large products have it:
// thirty handlers registered as closures, some writing, some publishing.
// Registering runs none of them: Setup has no finding; the one handler that
// both writes and publishes has its own.
package routes

import (
	"database/sql"
	"net/http"

	"github.com/nats-io/nats.go"

	"shapes/product/httputil"
)

func publish(nc *nats.Conn, subj string) { nc.Publish(subj, nil) }

func Setup(r *httputil.Router, db *sql.DB, nc *nats.Conn) {
	r.Handle("/admin/0", httputil.MakeAPI("admin_0", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 0); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/1", httputil.MakeAPI("admin_1", func(req *http.Request) httputil.Response {
		publish(nc, "admin.1")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/2", httputil.MakeAPI("admin_2", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 2); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/3", httputil.MakeAPI("admin_3", func(req *http.Request) httputil.Response {
		publish(nc, "admin.3")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/4", httputil.MakeAPI("admin_4", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 4); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/5", httputil.MakeAPI("admin_5", func(req *http.Request) httputil.Response {
		publish(nc, "admin.5")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/6", httputil.MakeAPI("admin_6", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 6); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/7", httputil.MakeAPI("admin_7", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "UPDATE rooms SET evacuated = true WHERE id = $1", "r"); err != nil {
			return httputil.Response{Code: 500}
		}
		publish(nc, "rooms.evacuated") // want `OBX001`
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/8", httputil.MakeAPI("admin_8", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 8); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/9", httputil.MakeAPI("admin_9", func(req *http.Request) httputil.Response {
		publish(nc, "admin.9")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/10", httputil.MakeAPI("admin_10", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 10); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/11", httputil.MakeAPI("admin_11", func(req *http.Request) httputil.Response {
		publish(nc, "admin.11")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/12", httputil.MakeAPI("admin_12", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 12); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/13", httputil.MakeAPI("admin_13", func(req *http.Request) httputil.Response {
		publish(nc, "admin.13")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/14", httputil.MakeAPI("admin_14", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 14); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/15", httputil.MakeAPI("admin_15", func(req *http.Request) httputil.Response {
		publish(nc, "admin.15")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/16", httputil.MakeAPI("admin_16", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 16); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/17", httputil.MakeAPI("admin_17", func(req *http.Request) httputil.Response {
		publish(nc, "admin.17")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/18", httputil.MakeAPI("admin_18", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 18); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/19", httputil.MakeAPI("admin_19", func(req *http.Request) httputil.Response {
		publish(nc, "admin.19")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/20", httputil.MakeAPI("admin_20", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 20); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/21", httputil.MakeAPI("admin_21", func(req *http.Request) httputil.Response {
		publish(nc, "admin.21")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/22", httputil.MakeAPI("admin_22", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 22); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/23", httputil.MakeAPI("admin_23", func(req *http.Request) httputil.Response {
		publish(nc, "admin.23")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/24", httputil.MakeAPI("admin_24", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 24); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/25", httputil.MakeAPI("admin_25", func(req *http.Request) httputil.Response {
		publish(nc, "admin.25")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/26", httputil.MakeAPI("admin_26", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 26); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/27", httputil.MakeAPI("admin_27", func(req *http.Request) httputil.Response {
		publish(nc, "admin.27")
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/28", httputil.MakeAPI("admin_28", func(req *http.Request) httputil.Response {
		if _, err := db.ExecContext(req.Context(), "DELETE FROM tokens WHERE id = $1", 28); err != nil {
			return httputil.Response{Code: 500}
		}
		return httputil.Response{Code: 200}
	}))
	r.Handle("/admin/29", httputil.MakeAPI("admin_29", func(req *http.Request) httputil.Response {
		publish(nc, "admin.29")
		return httputil.Response{Code: 200}
	}))
	r.HandleFunc("/health", func(w http.ResponseWriter, req *http.Request) {
		db.ExecContext(req.Context(), "UPDATE health SET seen = now()")
	})
	r.HandleFunc("/ping", func(w http.ResponseWriter, req *http.Request) {
		publish(nc, "ping")
	})
}
