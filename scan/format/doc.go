// Package format writes scan findings as text (one line per finding, the
// compiler's file:line:col convention), JSON (the documented contract other
// tools parse) and SARIF 2.1.0 (for code-scanning uploads).
//
// Every path is written relative to a base directory (the CLI's -C), slash
// separated, so output is the same on every machine.
package format
