// Package chi stubs the router API of github.com/go-chi/chi that the catalog's Later rows name.
package chi

import "net/http"

type Router interface {
	http.Handler
	Handle(pattern string, h http.Handler)
	HandleFunc(pattern string, h http.HandlerFunc)
	Method(method, pattern string, h http.Handler)
	MethodFunc(method, pattern string, h http.HandlerFunc)
	Connect(pattern string, h http.HandlerFunc)
	Delete(pattern string, h http.HandlerFunc)
	Get(pattern string, h http.HandlerFunc)
	Head(pattern string, h http.HandlerFunc)
	Options(pattern string, h http.HandlerFunc)
	Patch(pattern string, h http.HandlerFunc)
	Post(pattern string, h http.HandlerFunc)
	Put(pattern string, h http.HandlerFunc)
	Trace(pattern string, h http.HandlerFunc)
	NotFound(h http.HandlerFunc)
	MethodNotAllowed(h http.HandlerFunc)
	Route(pattern string, fn func(r Router)) Router
}

type Mux struct{ handlers []http.Handler }

func NewRouter() *Mux { return &Mux{} }

func (mx *Mux) add(h http.Handler) { mx.handlers = append(mx.handlers, h) }

func (mx *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {}
func (mx *Mux) Handle(p string, h http.Handler)                  { mx.add(h) }
func (mx *Mux) HandleFunc(p string, h http.HandlerFunc)          { mx.add(h) }
func (mx *Mux) Method(m, p string, h http.Handler)               { mx.add(h) }
func (mx *Mux) MethodFunc(m, p string, h http.HandlerFunc)       { mx.add(h) }
func (mx *Mux) Connect(p string, h http.HandlerFunc)             { mx.add(h) }
func (mx *Mux) Delete(p string, h http.HandlerFunc)              { mx.add(h) }
func (mx *Mux) Get(p string, h http.HandlerFunc)                 { mx.add(h) }
func (mx *Mux) Head(p string, h http.HandlerFunc)                { mx.add(h) }
func (mx *Mux) Options(p string, h http.HandlerFunc)             { mx.add(h) }
func (mx *Mux) Patch(p string, h http.HandlerFunc)               { mx.add(h) }
func (mx *Mux) Post(p string, h http.HandlerFunc)                { mx.add(h) }
func (mx *Mux) Put(p string, h http.HandlerFunc)                 { mx.add(h) }
func (mx *Mux) Trace(p string, h http.HandlerFunc)               { mx.add(h) }
func (mx *Mux) NotFound(h http.HandlerFunc)                      { mx.add(h) }
func (mx *Mux) MethodNotAllowed(h http.HandlerFunc)              { mx.add(h) }
func (mx *Mux) Route(p string, fn func(r Router)) Router         { sub := &Mux{}; fn(sub); return sub }
