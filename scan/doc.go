// Package scan loads a Go program and runs the dual-write analyzer over it,
// the way the `outboxify scan` command does, and hands back typed findings
// together with the loaded packages.
//
// It is the one loader the CLI commands share: `fix` rewrites the syntax
// trees that Load returns (full syntax and type information for the root
// packages) and `report` reads the same findings, so no command loads the
// program twice.
//
// API (stable):
//
//	prog, err := scan.Load(dir, []string{"./..."}, scan.Options{Tests: false})
//	// err is a *scan.LoadError when packages did not load or type-check
//	// (exit 2 in the CLI), a *scan.ConfigError for a bad .outboxify.yaml.
//	for _, f := range prog.Findings { ... } // []dualwrite.Finding, sorted by position
//	prog.Packages                           // root *packages.Package, with Syntax and TypesInfo
//	prog.Rel(f.Publish.Position.Filename)   // path relative to dir, slash-separated
//
// Interface calls: the CLI sees the whole program, so the analyzer runs on
// the root packages with dualwrite.ProgramResolver, which summarises callees
// from the loaded syntax and maps an interface method to its implementations
// among the loaded packages. Findings that needed it have Call.ViaInterface
// set; `go vet` (one package at a time, facts only) cannot produce those.
//
// Loading: dependencies that import no catalogued DB or broker client
// (directly or transitively) cannot write or publish, so their function
// bodies are dropped after parsing and they are type-checked from their
// declarations; roots, and dependencies that wrap a client, keep full
// syntax (Options.AllBodies keeps everything).
//
// Changes: Program.Recheck type-checks the program with an overlay of
// edited and added files in memory, against the types already loaded (only
// those files are parsed; their packages and the packages importing them
// are checked again), and analyses the result as Load would: `fix` checks
// its rewrite this way and reports from it, instead of a second load. It
// returns an error wrapping ErrNoRecheck where a real load is needed (the
// change imports a package the program did not load, cgo, build tags).
//
// Output formats (text, json, sarif) live in the subpackage format.
package scan
