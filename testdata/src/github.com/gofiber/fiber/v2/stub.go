// Package fiber stubs the router API of github.com/gofiber/fiber/v2 that the catalog's Later rows name.
package fiber

type Ctx struct{}

type Handler = func(*Ctx) error

type Router interface {
	Use(args ...interface{}) Router
	Get(path string, handlers ...Handler) Router
	Head(path string, handlers ...Handler) Router
	Post(path string, handlers ...Handler) Router
	Put(path string, handlers ...Handler) Router
	Delete(path string, handlers ...Handler) Router
	Connect(path string, handlers ...Handler) Router
	Options(path string, handlers ...Handler) Router
	Trace(path string, handlers ...Handler) Router
	Patch(path string, handlers ...Handler) Router
	Add(method, path string, handlers ...Handler) Router
	All(path string, handlers ...Handler) Router
}

type App struct{ handlers []Handler }

func New() *App { return &App{} }

func (a *App) add(h []Handler) Router { a.handlers = append(a.handlers, h...); return a }

func (a *App) Use(args ...interface{}) Router        { return a }
func (a *App) Get(p string, h ...Handler) Router     { return a.add(h) }
func (a *App) Head(p string, h ...Handler) Router    { return a.add(h) }
func (a *App) Post(p string, h ...Handler) Router    { return a.add(h) }
func (a *App) Put(p string, h ...Handler) Router     { return a.add(h) }
func (a *App) Delete(p string, h ...Handler) Router  { return a.add(h) }
func (a *App) Connect(p string, h ...Handler) Router { return a.add(h) }
func (a *App) Options(p string, h ...Handler) Router { return a.add(h) }
func (a *App) Trace(p string, h ...Handler) Router   { return a.add(h) }
func (a *App) Patch(p string, h ...Handler) Router   { return a.add(h) }
func (a *App) Add(m, p string, h ...Handler) Router  { return a.add(h) }
func (a *App) All(p string, h ...Handler) Router     { return a.add(h) }
