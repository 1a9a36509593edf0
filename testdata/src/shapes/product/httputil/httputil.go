// Package httputil wraps handlers the way large products do: the closure
// is stored in the returned handler and runs per request, not here.
package httputil

import "net/http"

type Response struct{ Code int }

// MakeAPI returns a handler that runs f for each request.
func MakeAPI(name string, f func(req *http.Request) Response) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		res := f(req)
		w.WriteHeader(res.Code)
	})
}

// Router stores handlers by path.
type Router struct{ routes map[string]http.Handler }

func (r *Router) Handle(path string, h http.Handler) { r.routes[path] = h }

func (r *Router) HandleFunc(path string, f func(http.ResponseWriter, *http.Request)) {
	r.routes[path] = http.HandlerFunc(f)
}
