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
// Interface calls: the CLI sees the whole program, so Load runs the
// analyzer a second time when the first pass left calls through interfaces
// that implementations in the loaded packages could resolve (see the
// analyzer's doc for the hook). Findings that needed it have
// Call.ViaInterface set; `go vet` cannot produce those.
//
// Output formats (text, json, sarif) live in the subpackage format.
package scan
