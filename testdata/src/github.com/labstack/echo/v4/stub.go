// Package echo stubs the router API of github.com/labstack/echo/v4 that the catalog's Later rows name.
package echo

type Context interface{ String(int, string) error }

type HandlerFunc func(Context) error

type MiddlewareFunc func(HandlerFunc) HandlerFunc

type Route struct{}

type router struct {
	handlers   []HandlerFunc
	middleware []MiddlewareFunc
}

func (r *router) add(h HandlerFunc) *Route { r.handlers = append(r.handlers, h); return &Route{} }

type Echo struct{ router }

func New() *Echo { return &Echo{} }

func (e *Echo) Use(m ...MiddlewareFunc)                                       { e.middleware = append(e.middleware, m...) }
func (e *Echo) GET(p string, h HandlerFunc, m ...MiddlewareFunc) *Route       { return e.add(h) }
func (e *Echo) POST(p string, h HandlerFunc, m ...MiddlewareFunc) *Route      { return e.add(h) }
func (e *Echo) PUT(p string, h HandlerFunc, m ...MiddlewareFunc) *Route       { return e.add(h) }
func (e *Echo) PATCH(p string, h HandlerFunc, m ...MiddlewareFunc) *Route     { return e.add(h) }
func (e *Echo) DELETE(p string, h HandlerFunc, m ...MiddlewareFunc) *Route    { return e.add(h) }
func (e *Echo) HEAD(p string, h HandlerFunc, m ...MiddlewareFunc) *Route      { return e.add(h) }
func (e *Echo) OPTIONS(p string, h HandlerFunc, m ...MiddlewareFunc) *Route   { return e.add(h) }
func (e *Echo) CONNECT(p string, h HandlerFunc, m ...MiddlewareFunc) *Route   { return e.add(h) }
func (e *Echo) TRACE(p string, h HandlerFunc, m ...MiddlewareFunc) *Route     { return e.add(h) }
func (e *Echo) Any(p string, h HandlerFunc, m ...MiddlewareFunc) []*Route     { e.add(h); return nil }
func (e *Echo) Add(meth, p string, h HandlerFunc, m ...MiddlewareFunc) *Route { return e.add(h) }
func (e *Echo) Match(meths []string, p string, h HandlerFunc, m ...MiddlewareFunc) []*Route {
	e.add(h)
	return nil
}
func (e *Echo) Group(prefix string, m ...MiddlewareFunc) *Group { return &Group{} }

type Group struct{ router }

func (g *Group) Use(m ...MiddlewareFunc)                                       { g.middleware = append(g.middleware, m...) }
func (g *Group) GET(p string, h HandlerFunc, m ...MiddlewareFunc) *Route       { return g.add(h) }
func (g *Group) POST(p string, h HandlerFunc, m ...MiddlewareFunc) *Route      { return g.add(h) }
func (g *Group) PUT(p string, h HandlerFunc, m ...MiddlewareFunc) *Route       { return g.add(h) }
func (g *Group) PATCH(p string, h HandlerFunc, m ...MiddlewareFunc) *Route     { return g.add(h) }
func (g *Group) DELETE(p string, h HandlerFunc, m ...MiddlewareFunc) *Route    { return g.add(h) }
func (g *Group) HEAD(p string, h HandlerFunc, m ...MiddlewareFunc) *Route      { return g.add(h) }
func (g *Group) OPTIONS(p string, h HandlerFunc, m ...MiddlewareFunc) *Route   { return g.add(h) }
func (g *Group) CONNECT(p string, h HandlerFunc, m ...MiddlewareFunc) *Route   { return g.add(h) }
func (g *Group) TRACE(p string, h HandlerFunc, m ...MiddlewareFunc) *Route     { return g.add(h) }
func (g *Group) Any(p string, h HandlerFunc, m ...MiddlewareFunc) []*Route     { g.add(h); return nil }
func (g *Group) Add(meth, p string, h HandlerFunc, m ...MiddlewareFunc) *Route { return g.add(h) }
func (g *Group) Match(meths []string, p string, h HandlerFunc, m ...MiddlewareFunc) []*Route {
	g.add(h)
	return nil
}
