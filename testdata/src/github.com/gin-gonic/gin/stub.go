// Package gin stubs the router API of github.com/gin-gonic/gin that the catalog's Later rows name.
package gin

type Context struct{}

// Next runs the rest of the route's chain: the handler, after the middlewares.
func (c *Context) Next() {}

type HandlerFunc func(*Context)

type IRoutes interface {
	Use(...HandlerFunc) IRoutes
	Handle(string, string, ...HandlerFunc) IRoutes
	Any(string, ...HandlerFunc) IRoutes
	GET(string, ...HandlerFunc) IRoutes
	POST(string, ...HandlerFunc) IRoutes
	DELETE(string, ...HandlerFunc) IRoutes
	PATCH(string, ...HandlerFunc) IRoutes
	PUT(string, ...HandlerFunc) IRoutes
	OPTIONS(string, ...HandlerFunc) IRoutes
	HEAD(string, ...HandlerFunc) IRoutes
	Match([]string, string, ...HandlerFunc) IRoutes
}

type RouterGroup struct {
	handlers []HandlerFunc
	debug    func(string)
}

func (g *RouterGroup) add(h []HandlerFunc) IRoutes { g.handlers = append(g.handlers, h...); return g }

func (g *RouterGroup) Use(h ...HandlerFunc) IRoutes                         { return g.add(h) }
func (g *RouterGroup) Handle(m, p string, h ...HandlerFunc) IRoutes         { return g.add(h) }
func (g *RouterGroup) Any(p string, h ...HandlerFunc) IRoutes               { return g.add(h) }
func (g *RouterGroup) GET(p string, h ...HandlerFunc) IRoutes               { return g.add(h) }
func (g *RouterGroup) POST(p string, h ...HandlerFunc) IRoutes              { return g.add(h) }
func (g *RouterGroup) DELETE(p string, h ...HandlerFunc) IRoutes            { return g.add(h) }
func (g *RouterGroup) PATCH(p string, h ...HandlerFunc) IRoutes             { return g.add(h) }
func (g *RouterGroup) PUT(p string, h ...HandlerFunc) IRoutes               { return g.add(h) }
func (g *RouterGroup) OPTIONS(p string, h ...HandlerFunc) IRoutes           { return g.add(h) }
func (g *RouterGroup) HEAD(p string, h ...HandlerFunc) IRoutes              { return g.add(h) }
func (g *RouterGroup) Match(m []string, p string, h ...HandlerFunc) IRoutes { return g.add(h) }

type Engine struct{ RouterGroup }

func New() *Engine { return &Engine{} }

// Group makes a sub-group whose routes run h first (not a catalog row: its
// body shows it stores them); combine calls the debug hook, a func field,
// as gin's route printing does.
func (g *RouterGroup) Group(p string, h ...HandlerFunc) *RouterGroup {
	return &RouterGroup{handlers: g.combine(h), debug: g.debug}
}

func (g *RouterGroup) combine(h []HandlerFunc) []HandlerFunc {
	if g.debug != nil {
		g.debug("combine")
	}
	return append(append([]HandlerFunc{}, g.handlers...), h...)
}
