package scan

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/outboxify/outboxify/analyzer/catalog"
	"github.com/outboxify/outboxify/analyzer/config"
	"github.com/outboxify/outboxify/internal/pkgload"
)

// Loading is most of a scan's time and memory. Most of a program's
// dependencies (the standard library, a web framework, a metrics client)
// can neither write to a store nor publish: they import no catalogued client
// library, directly or transitively. Their function bodies cannot matter to
// the analyzer, so they are dropped right after parsing and those packages
// are type-checked from their declarations only, the way go/packages treats
// dependencies it only needs types for. Packages that reach a client library
// (a home-made event bus wrapping kafka-go, a repository on database/sql)
// and every root package keep full syntax. The client libraries themselves
// are described by the catalog's rows, so their bodies are dropped too.

// metaMode is the cheap first load: the import graph and file names only.
const metaMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedDeps | packages.NeedModule

// loadPackages loads patterns with full syntax for the root packages and for
// dependencies that reach a catalogued client; others lose their bodies.
func loadPackages(pcfg *packages.Config, patterns []string, cfg *config.Config, allBodies bool) ([]*packages.Package, error) {
	if allBodies {
		return pkgload.Load(pcfg, patterns...)
	}
	meta := *pcfg
	meta.Mode = metaMode
	meta.Fset = nil
	roots, err := pkgload.Load(&meta, patterns...)
	if err != nil {
		return nil, err
	}
	// Packages with errors (a missing go.sum entry, a syntax error) are
	// loaded like the others: the full load below reports their errors with
	// positions, and a partial scan still analyses the rest.
	keep := relevantPackages(roots, cfg)
	stripped := map[string]bool{} // files whose bodies are dropped
	packages.Visit(roots, nil, func(p *packages.Package) {
		if keep[p.PkgPath] {
			return
		}
		for _, f := range p.CompiledGoFiles {
			stripped[f] = true
		}
	})
	// A file shared by a kept package (a test variant) stays whole.
	packages.Visit(roots, nil, func(p *packages.Package) {
		if keep[p.PkgPath] {
			for _, f := range p.CompiledGoFiles {
				delete(stripped, f)
			}
		}
	})
	full := *pcfg
	full.ParseFile = func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
		if !stripped[filename] {
			return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		}
		f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
		if f != nil {
			stripBodies(f)
		}
		return f, err
	}
	pkgs, err := pkgload.Load(&full, patterns...)
	if err != nil {
		return nil, err
	}
	forgiveStrippedImports(pkgs, keep)
	return pkgs, nil
}

// relevantPackages returns the import paths whose bodies the analyzers may
// need: the roots, every package of the roots' modules (the team's own code,
// which other analyzers run over the same packages, such as the consumer
// rule's external-call facts, may need), and every non-client package that
// imports a catalogued client or a package named by the configuration,
// directly or not.
func relevantPackages(roots []*packages.Package, cfg *config.Config) map[string]bool {
	cat := catalog.Default()
	configured := map[string]bool{}
	if cfg != nil {
		for _, row := range cfg.Rows() {
			if p := catalog.PackageOf(row.Name); p != "" {
				configured[p] = true
			}
		}
	}
	reaches := map[string]bool{} // path -> imports a client or configured package
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		if r, ok := reaches[p.PkgPath]; ok {
			return r
		}
		reaches[p.PkgPath] = false // cycles cannot happen in Go; this guards repeats
		r := configured[p.PkgPath] || cat.IsClient(p.PkgPath)
		for _, imp := range p.Imports {
			if visit(imp) {
				r = true
			}
		}
		reaches[p.PkgPath] = r
		return r
	}
	keep := map[string]bool{}
	modules := map[string]bool{}
	for _, p := range roots {
		visit(p)
		keep[p.PkgPath] = true
		if p.Module != nil {
			modules[p.Module.Path] = true
		}
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if p.Module != nil && modules[p.Module.Path] {
			keep[p.PkgPath] = true
		}
	})
	for path, r := range reaches {
		if r && (configured[path] || !cat.IsClient(path)) {
			keep[path] = true
		}
	}
	return keep
}

// forgiveStrippedImports removes the "imported and not used" errors that
// dropping bodies causes (the uses were in the bodies) and recomputes
// IllTyped, which the analysis driver checks before running.
func forgiveStrippedImports(pkgs []*packages.Package, keep map[string]bool) {
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		errs := p.Errors[:0]
		for _, e := range p.Errors {
			if e.Kind == packages.TypeError && unusedImport(e.Msg) && !keep[p.PkgPath] {
				continue
			}
			errs = append(errs, e)
		}
		if len(errs) == 0 {
			errs = nil
		}
		p.Errors = errs
		ill := len(p.Errors) > 0
		for _, imp := range p.Imports {
			ill = ill || imp.IllTyped
		}
		p.IllTyped = ill
	})
}

// unusedImport reports whether a type error says an import is not used:
// with bodies dropped, the uses may have been in them.
func unusedImport(msg string) bool {
	return strings.Contains(msg, "imported") && strings.Contains(msg, "not used")
}

// stripBodies drops the function bodies of a package the analyzers do not
// need, keeping what type-checking and the analyzers still read.
func stripBodies(f *ast.File) {
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			switch {
			case fd.Recv == nil && fd.Name.Name == "init":
				fd.Body = &ast.BlockStmt{Lbrace: fd.Body.Lbrace, Rbrace: fd.Body.Lbrace}
			case takesFuncLit(fd):
				// kept: whether it runs the closure it is given or
				// stores it for later (cron.AddFunc, http.HandleFunc,
				// errgroup.Go) decides whose path the closure is on
			case isGeneric(fd):
				// Generic functions need a body: a terminating one.
				fd.Body = panicBody(fd.Body.Lbrace)
			default:
				fd.Body = nil // a declaration without body, like an assembly function
			}
		}
	}
}

func isGeneric(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil && len(fd.Type.TypeParams.List) > 0 {
		return true
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := fd.Recv.List[0].Type
	if st, ok := t.(*ast.StarExpr); ok {
		t = st.X
	}
	switch t.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// panicBody is `{ panic(0) }` at pos.
func panicBody(pos token.Pos) *ast.BlockStmt {
	call := &ast.CallExpr{
		Fun:    &ast.Ident{NamePos: pos, Name: "panic"},
		Lparen: pos, Rparen: pos,
		Args: []ast.Expr{&ast.BasicLit{ValuePos: pos, Kind: token.INT, Value: "0"}},
	}
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: call}}, Rbrace: pos}
}

// takesFuncLit reports whether a function declares a parameter of a
// function type written out (func(), ...func(ctx) error): the analyzer
// reads such bodies to see how the closure it is given is run. Named
// handler types (gin.HandlerFunc) are the catalog's Later rows.
func takesFuncLit(fd *ast.FuncDecl) bool {
	for _, f := range fd.Type.Params.List {
		t := f.Type
		if e, ok := t.(*ast.Ellipsis); ok {
			t = e.Elt
		}
		if _, ok := t.(*ast.FuncType); ok {
			return true
		}
	}
	return false
}
