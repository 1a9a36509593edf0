// Package mux stubs the router API of github.com/gorilla/mux that the catalog's Later rows name.
package mux

import "net/http"

type Route struct{ h http.Handler }

func (r *Route) HandlerFunc(f func(http.ResponseWriter, *http.Request)) *Route {
	r.h = http.HandlerFunc(f)
	return r
}

type Router struct{ routes []*Route }

func NewRouter() *Router { return &Router{} }

func (r *Router) HandleFunc(path string, f func(http.ResponseWriter, *http.Request)) *Route {
	rt := &Route{}
	r.routes = append(r.routes, rt)
	return rt.HandlerFunc(f)
}
