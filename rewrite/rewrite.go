package rewrite

import (
	"bytes"
	"fmt"
	"github.com/pmezard/go-difflib/difflib"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/outboxify/outboxify/analyzer/catalog"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

// Options configures Fix.
type Options struct {
	// OutboxPkg is the import path of the outbox writer package
	// (outbox.Insert / outbox.Message).
	OutboxPkg string
	// Skip names files (absolute paths) that must never be edited, such as
	// the files outboxify generated (relay, inbox); their findings are
	// counted in Result.Skipped, not rewritten.
	Skip map[string]bool
	// Writers maps a driver ("database/sql", "sqlx", "pgx", "pgx4", "gorm")
	// to the writer function taking its transaction (Insert for the default
	// driver, InsertPgx, ...), when the writer package is generated in the
	// same run. A transaction of a driver listed here is passed to its own
	// writer; otherwise to Insert.
	Writers map[string]string
	// Accessors are the unit-of-work accessors the writer package has
	// ("SQL", "Gorm", "Pgx"): a finding whose publish goes through a
	// wrapper is rewritten across functions only for handles they serve.
	Accessors map[string]bool
	// DB is the database the writes go to ("postgres", "mysql"), for the
	// behaviour notes; "" when unknown.
	DB string

	outboxTypes *types.Package // found among the loaded packages
}

// Position is a place in a source file (absolute path in Result; the CLI
// makes it module-relative).
type Position struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Strategy names, as reported.
const (
	StrategyInTx   = "in-transaction"   // insert on the existing transaction
	StrategyOpenTx = "open-transaction" // transaction opened around the writes
)

// Replacement is one publish turned into an outbox insert.
type Replacement struct {
	Rule     string   `json:"rule"`
	Call     string   `json:"call"`
	Strategy string   `json:"strategy"`
	Before   Position `json:"before"`
	After    Position `json:"after"`
	// Behaviour says what runs differently at this site after the rewrite
	// (a reviewer's checklist; see Behaviour).
	Behaviour []string `json:"behaviour,omitempty"`
	// Notes are what the rewrite left for a person to tidy, such as a
	// parameter that served only the publish and is now unused.
	Notes []string `json:"notes,omitempty"`

	extra []string // site-specific behaviour changes, after Behaviour's
}

// Behaviour lists what a rewrite of strategy changes at run time, on db
// ("postgres", "mysql" or "" when unknown).
func Behaviour(strategy, db string) []string {
	const (
		relay    = "the event is published by the relay after the transaction commits, not at this line, and never if the transaction rolls back"
		together = "writes that autocommitted one by one now commit together, and roll back on any later error in the transaction"
		locks    = "calls made after the first write (HTTP, RPC, slow reads) now run while the transaction holds its row locks"
		snapshot = "on MySQL (REPEATABLE READ) reads after the transaction's first read see its snapshot, not rows other transactions commit meanwhile"
		unit     = "the function's body runs in outbox.Run: every write through the outbox accessors in it joins one transaction, committed when the body returns nil, rolled back on an error or a panic"
		direct   = "outside a unit the publisher wrapper publishes directly as before (OUTBOX_DIRECT=1 makes it always do so, to roll back)"
	)
	var out []string
	switch strategy {
	case StrategyInTx:
		return []string{relay}
	case StrategyOpenTx:
		out = []string{relay, together, locks}
	case StrategyUnit:
		out = []string{unit, relay, together, locks, direct}
	default:
		return nil
	}
	if db == "mysql" {
		out = append(out, snapshot)
	}
	return out
}

// Manual is a finding left for a person, with why and what to do.
type Manual struct {
	Rule   string `json:"rule"`
	Call   string `json:"call,omitempty"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	Advice string `json:"advice"`

	col      int // column of the publish call, to follow it when its file is rewritten
	origLine int // Line before the file was rewritten (restored when the edit is dropped)
}

// FileEdit is one rewritten file, as data.
type FileEdit struct {
	Path     string // absolute
	PkgPath  string
	Before   []byte
	After    []byte
	Replaced []Replacement
	// Group, when not zero, ties edits that only work together (the
	// unit-of-work rewrite across files): dropping one drops them all.
	Group int
}

// Result is what Fix did.
type Result struct {
	Files  []*FileEdit
	Manual []Manual
	// Skipped counts findings in files Options.Skip names.
	Skipped int
}

// Replaced lists every replacement across files, in file order.
func (r *Result) Replaced() []Replacement {
	var out []Replacement
	for _, f := range r.Files {
		out = append(out, f.Replaced...)
	}
	return out
}

// Drop leaves f untouched: its replacements become manual findings with reason.
func (r *Result) Drop(f *FileEdit, reason string) {
	if f.Group != 0 {
		// the other files of the group go too, with the same reason
		g := f.Group
		f.Group = 0
		for _, o := range append([]*FileEdit(nil), r.Files...) {
			if o != f && o.Group == g {
				o.Group = 0
				r.Drop(o, "another file of this unit-of-work rewrite would not compile ("+reason+")")
			}
		}
	}
	for i, g := range r.Files {
		if g != f {
			continue
		}
		r.Files = append(r.Files[:i:i], r.Files[i+1:]...)
		for j := range r.Manual {
			if m := &r.Manual[j]; m.File == f.Path && m.origLine != 0 {
				m.Line, m.origLine = m.origLine, 0
			}
		}
		for _, rp := range f.Replaced {
			r.Manual = append(r.Manual, Manual{
				Rule: rp.Rule, Call: rp.Call, File: rp.Before.File, Line: rp.Before.Line,
				Reason: reason,
				Advice: "fix the file by hand or correct the cause and run outboxify fix again",
			})
		}
		return
	}
}

// MoveManualLines makes manual findings in edited files that no marked
// render placed (the unit-of-work rewrite renders its files itself) point
// at their lines in the files as written, by the lines the edit left
// unchanged around them.
func (r *Result) MoveManualLines() {
	edited := map[string]*FileEdit{}
	for _, f := range r.Files {
		edited[f.Path] = f
	}
	for i := range r.Manual {
		m := &r.Manual[i]
		f := edited[m.File]
		if f == nil || m.origLine != 0 {
			continue
		}
		if line := f.AfterLine(m.Line); line != m.Line {
			m.origLine, m.Line = m.Line, line
		}
	}
}

// UnmovedLines makes manual findings point at their lines in the files as
// they are on disk before writing (for --diff, which writes nothing).
func (r *Result) UnmovedLines() {
	for i := range r.Manual {
		if m := &r.Manual[i]; m.origLine != 0 {
			m.Line, m.origLine = m.origLine, 0
		}
	}
}

func (r *Result) manual(f dualwrite.Finding, reason, advice string) {
	if advice == "" {
		advice = adviceFor(f)
	}
	r.Manual = append(r.Manual, Manual{
		Rule: f.Rule, Call: f.Publish.Name,
		File: f.Publish.Position.Filename, Line: f.Publish.Position.Line,
		Reason: reason, Advice: advice, col: f.Publish.Position.Column,
	})
}

// adviceFor is the default "what to do by hand" for a finding.
func adviceFor(f dualwrite.Finding) string {
	return "insert the event with outbox.Insert(ctx, tx, outbox.Message{...}) on the transaction that does the write, before Commit, and drop the publish (the relay publishes it)"
}

// storeAdvice is the pattern that fits a store of record other than SQL.
// River (a job queue in PostgreSQL) joins the caller's transaction itself.
const (
	riverPkg      = "github.com/riverqueue/river"
	requestAdvice = "if the reply is not needed, publish instead and let fix move the publish into the outbox; otherwise record the pending request in the write's transaction (an outbox row or a pending state) and let a worker send it and retry until it is answered"
	riverAdvice   = "insert the job with InsertTx (or InsertManyTx) on the transaction of the write: it commits with the write, and River's workers take it from there"
)

var storeAdvice = map[string]string{
	"dynamodb":  "put an outbox item in the same TransactWriteItems call as the business item (a relay or DynamoDB Streams publishes it), or publish from DynamoDB Streams",
	"mongodb":   "insert an outbox document in the same MongoDB transaction (session.WithTransaction), or publish from a change stream",
	"cassandra": "Cassandra has no multi-table transaction: write the event to an outbox table in the same LOGGED BATCH, or use CDC",
	"firestore": "write an outbox document in the same RunTransaction, and publish it from a trigger or relay",
	"spanner":   "buffer an outbox mutation in the same read-write transaction as the business write (a relay or a change stream publishes it)",
	"datastore": "put an outbox entity in the same Datastore transaction (RunInTransaction) as the business entity, and let a relay publish it",
	"daprstate": "turn on the Dapr state store's transactional outbox (outboxPublishPubsub and outboxPublishTopic in its component) and write through ExecuteStateTransaction; drop the separate publish",
	"ldap":      "an LDAP directory has no transaction a broker can join: write the event to an outbox (a SQL table, or a pending-event attribute on the entry) for a relay, or publish from the directory's change log",
	"kv":        "a key-value store has no transaction a broker can join: keep the pending event in the written record for a relay to publish and clear, or publish from the store's change feed (a NATS KV watch)",
	"rethinkdb": "RethinkDB has no multi-document transaction: publish from a changefeed on the written table, or keep the pending event in the written document for a relay",
}

// located is a finding whose publish call was found in the loaded syntax.
type located struct {
	f    dualwrite.Finding
	pkg  *packages.Package
	file *ast.File
	call *ast.CallExpr
	name string // publish API full name
	pos  token.Pos
}

// Fix rewrites the findings' dual writes in pkgs (loaded with syntax and
// types) and returns the edited files as data; it writes nothing.
func Fix(pkgs []*packages.Package, findings []dualwrite.Finding, opts Options) (*Result, error) {
	if opts.OutboxPkg == "" {
		return nil, fmt.Errorf("rewrite: no outbox package import path")
	}
	res := &Result{}
	opts.outboxTypes = findTypes(pkgs, opts.OutboxPkg)
	if opts.Accessors == nil && opts.outboxTypes != nil {
		// the writer package exists: its unit of work says which handles it serves
		opts.Accessors = map[string]bool{}
		if _, ok := opts.outboxTypes.Scope().Lookup("Run").(*types.Func); ok {
			for _, a := range []string{"SQL", "Gorm", "Pgx", "PgxV4", "Sqlx", "BeginSQL"} {
				_, ok := opts.outboxTypes.Scope().Lookup(a).(*types.Func)
				opts.Accessors[a] = ok
			}
		}
	}
	files := map[string]struct {
		pkg  *packages.Package
		file *ast.File
	}{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, f := range p.Syntax {
			name := p.Fset.File(f.FileStart).Name()
			if _, ok := files[name]; !ok {
				files[name] = struct {
					pkg  *packages.Package
					file *ast.File
				}{p, f}
			}
		}
	})
	byFile := map[*ast.File][]*located{}
	var order []*ast.File
	var units []dualwrite.Finding
	seen := map[token.Pos]bool{}
	for _, f := range findings {
		if opts.Skip[f.Publish.Position.Filename] {
			res.Skipped++
			continue
		}
		switch {
		case f.Rule == dualwrite.RuleUnusedSuppress:
			continue
		case f.Rule == dualwrite.RuleConsumerInbox || f.Rule == dualwrite.RuleExternalNoKey:
			res.manual(f, "a consumer without an inbox is not rewritten in this version",
				"run the handler's writes and an inbox insert (generated inbox package) in one transaction, and ack after commit")
			continue
		case f.Rule == dualwrite.RuleOutboxOther:
			res.manual(f, "the outbox row is written on another handle than the business write",
				"pass the business transaction to outbox.Insert instead of a new session or connection")
			continue
		case f.Store != "" && f.Store != "sql":
			res.manual(f, "the store of record is "+f.Store+", not SQL: there is no SQL transaction to put the outbox row in", storeAdvice[f.Store])
			continue
		case isRequest(f.Publish.Name):
			res.manual(f, "the publish is a request that waits for a reply: an outbox row cannot hand the caller one", requestAdvice)
			continue
		case strings.HasPrefix(f.Publish.Name, "(*"+riverPkg+".Client)."):
			res.manual(f, "the publish is a River job insert, which River writes to PostgreSQL itself: no outbox row is needed", riverAdvice)
			continue
		case len(f.Publish.Via) > 0:
			units = append(units, f) // across functions: the unit of work
			continue
		}
		entry, ok := files[f.Publish.Position.Filename]
		if !ok {
			res.manual(f, "the file is not among the loaded packages", "")
			continue
		}
		if ast.IsGenerated(entry.file) {
			res.manual(f, "generated file (Code generated ... DO NOT EDIT): not edited", "fix the generator or its input")
			continue
		}
		tf := entry.pkg.Fset.File(entry.file.FileStart)
		if f.Publish.Position.Line < 1 || f.Publish.Position.Line > tf.LineCount() {
			res.manual(f, "the finding's position is outside the file", "")
			continue
		}
		pos := tf.LineStart(f.Publish.Position.Line) + token.Pos(max(f.Publish.Position.Column-1, 0))
		call, name := publishCallAt(entry.pkg.TypesInfo, entry.file, pos, f.Publish.Name)
		if call == nil {
			res.manual(f, "no publish call found at the finding's position", "")
			continue
		}
		if seen[call.Pos()] {
			continue // several rules on one publish: rewrite it once
		}
		seen[call.Pos()] = true
		if _, ok := byFile[entry.file]; !ok {
			order = append(order, entry.file)
		}
		byFile[entry.file] = append(byFile[entry.file], &located{f: f, pkg: entry.pkg, file: entry.file, call: call, name: name, pos: pos})
	}
	// The per-function strategies edit their files' trees first; the unit
	// of work then edits the same trees (a file both touch is decorated
	// once and rendered once), so one load serves every strategy.
	pending := map[*ast.File]*pendingFile{}
	for _, file := range order {
		locs := byFile[file]
		sort.Slice(locs, func(i, j int) bool { return locs[i].call.Pos() < locs[j].call.Pos() })
		pf, err := fixFile(res, locs, opts)
		if err != nil {
			return nil, err
		}
		if pf != nil {
			pending[file] = pf
		}
	}
	if len(units) > 0 {
		if err := fixUnits(res, pkgs, units, pending, opts); err != nil {
			return nil, err
		}
	}
	for _, file := range order {
		if pf := pending[file]; pf != nil && !pf.rendered {
			if err := pf.finish(res, nil, nil, 0); err != nil {
				return nil, err
			}
		}
	}
	return res, nil
}

// shortName drops the import path's directories from a full name:
// "(*example.com/app/events.Bus).Emit" -> "(*events.Bus).Emit".
func shortName(full string) string {
	i := strings.LastIndex(full, "/")
	if i < 0 {
		return full
	}
	j := strings.LastIndexAny(full[:i], "(*")
	return full[:j+1] + full[i+1:]
}

// findTypes returns the package with path among pkgs or anything they import.
func findTypes(pkgs []*packages.Package, path string) *types.Package {
	var out *types.Package
	seen := map[*types.Package]bool{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if p == nil || seen[p] || out != nil {
			return
		}
		seen[p] = true
		if p.Path() == path {
			out = p
			return
		}
		for _, ip := range p.Imports() {
			walk(ip)
		}
	}
	for _, p := range pkgs {
		walk(p.Types)
	}
	return out
}

// publishCallAt returns the innermost call at pos whose callee is a publish
// API (name, when given, must match).
func publishCallAt(info *types.Info, file *ast.File, pos token.Pos, name string) (*ast.CallExpr, string) {
	var best *ast.CallExpr
	var bestName string
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil || n.Pos() > pos || n.End() <= pos {
			return n == nil || (n.Pos() <= pos && pos < n.End())
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, ok := typeutil.Callee(info, call).(*types.Func)
		if !ok {
			return true
		}
		full := fn.FullName()
		if full == name || (name == "" && publishers[full].messages != nil) {
			best, bestName = call, full
		} else if _, known := publishers[full]; known && best == nil {
			best, bestName = call, full
		}
		return true
	})
	return best, bestName
}

// fixFile plans and applies the findings of one file and restores it.
// pendingFile is a file the per-function strategies edited, not rendered
// yet: the unit of work may edit the same tree before it is.
type pendingFile struct {
	pkg     *packages.Package
	file    *ast.File
	dec     *decorator.Decorator
	df      *dst.File
	fr      *fileRewriter
	opts    Options
	applied []done
	// funcs are the top-level functions the edits are in: the unit of
	// work leaves a finding whose functions overlap them to a second run
	funcs    map[*ast.FuncDecl]bool
	rendered bool
}

type done struct {
	loc   *located
	calls []*dst.CallExpr
	strat string
}

func fixFile(res *Result, locs []*located, opts Options) (*pendingFile, error) {
	pkg, file := locs[0].pkg, locs[0].file
	dec := decorator.NewDecoratorFromPackage(pkg)
	df, err := dec.DecorateFile(file)
	if err != nil {
		return nil, fmt.Errorf("decorate %s: %w", pkg.Fset.File(file.FileStart).Name(), err)
	}
	fr := newFileRewriter(pkg, file, dec, df, opts)
	var applied []done
	for i, l := range locs {
		p, why, advice := safePlan(fr, l)
		if why != "" {
			res.manual(l.f, why, advice)
			continue
		}
		if err := safeApply(p); err != nil {
			// The tree may be half edited: leave the whole file alone.
			for _, d := range applied {
				res.manual(d.loc.f, "internal error while rewriting this file ("+err.Error()+"); left unchanged", "")
			}
			for _, rest := range locs[i:] {
				res.manual(rest.f, "internal error while rewriting this file ("+err.Error()+"); left unchanged", "")
			}
			return nil, nil
		}
		applied = append(applied, done{l, p.inserts, p.strategy})
	}
	if len(applied) == 0 {
		return nil, nil
	}
	pf := &pendingFile{pkg: pkg, file: file, dec: dec, df: df, fr: fr, opts: opts, applied: applied, funcs: map[*ast.FuncDecl]bool{}}
	for _, d := range applied {
		for n := ast.Node(d.loc.call); n != nil; n = fr.parent[n] {
			if fd, ok := n.(*ast.FuncDecl); ok {
				pf.funcs[fd] = true
			}
		}
	}
	return pf, nil
}

// finish renders the file with every edit made to its tree (the unit of
// work's too: its Run identifiers and findings, its group), and records
// where the replacements and the file's manual findings are after it.
func (pf *pendingFile) finish(res *Result, unitMarks []*dst.Ident, unitReplaced []Replacement, group int) error {
	pf.rendered = true
	pkg, file, dec, df, fr, opts, applied := pf.pkg, pf.file, pf.dec, pf.df, pf.fr, pf.opts, pf.applied
	name := pkg.Fset.File(file.FileStart).Name()
	before, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	render := func() ([]byte, error) {
		restorer := decorator.NewRestorerWithImports(pkg.PkgPath, fr.resolver())
		rf := restorer.FileRestorer()
		keepAliases(rf, file)
		if fr.outboxAlias != "" {
			rf.Alias[opts.OutboxPkg] = fr.outboxAlias
		}
		af, err := rf.RestoreFile(df)
		if err != nil {
			return nil, fmt.Errorf("restore %s: %w", name, err)
		}
		var buf bytes.Buffer
		if err := format.Node(&buf, restorer.Fset, af); err != nil {
			return nil, fmt.Errorf("print %s: %w", name, err)
		}
		out, err := format.Source(buf.Bytes())
		if err != nil {
			return nil, fmt.Errorf("gofmt %s: %w", name, err)
		}
		module := ""
		if pkg.Module != nil {
			module = pkg.Module.Path
		}
		return keepImportGroups(before, out, module)
	}

	// Lines after the rewrite: render once with each call of interest
	// renamed to a unique marker (renaming never changes line breaks: gofmt
	// does not wrap), read the markers' lines, then render for real.
	type mark struct {
		id   *dst.Ident
		name string
		line *int
	}
	var marks []mark
	afterLines := make([]int, len(applied))
	for i, d := range applied {
		if len(d.calls) > 0 {
			if id, ok := d.calls[0].Fun.(*dst.Ident); ok {
				marks = append(marks, mark{id, id.Name, &afterLines[i]})
			}
		}
	}
	// the unit of work's Run identifiers (one may carry several findings)
	unitLines := make([]int, len(unitReplaced))
	runLine := map[*dst.Ident]*int{}
	for _, id := range unitMarks {
		if runLine[id] == nil {
			runLine[id] = new(int)
			marks = append(marks, mark{id, id.Name, runLine[id]})
		}
	}
	tf := pkg.Fset.File(file.FileStart)
	manualLines := map[int]*int{}
	for i := range res.Manual {
		m := &res.Manual[i]
		if m.File != name || m.Line < 1 || m.Line > tf.LineCount() {
			continue
		}
		call := callAt(file, tf.LineStart(m.Line)+token.Pos(max(m.col-1, 0)))
		if call == nil {
			continue
		}
		dn, ok := dec.Dst.Nodes[call].(*dst.CallExpr)
		if !ok {
			continue
		}
		var id *dst.Ident
		switch fun := dn.Fun.(type) {
		case *dst.Ident:
			id = fun
		case *dst.SelectorExpr:
			id = fun.Sel
		}
		if id != nil {
			line := new(int)
			manualLines[i] = line
			marks = append(marks, mark{id, id.Name, line})
		}
	}
	for k, mk := range marks {
		mk.id.Name = fmt.Sprintf("%sOBXMARK%dX", mk.name, k)
	}
	marked, err := render()
	for _, mk := range marks {
		mk.id.Name = mk.name
	}
	if err != nil {
		return err
	}
	for n, text := range strings.Split(string(marked), "\n") {
		for k, mk := range marks {
			if strings.Contains(text, fmt.Sprintf("%sOBXMARK%dX", mk.name, k)) {
				*mk.line = n + 1
			}
		}
	}
	after, err := render()
	if err != nil {
		return err
	}
	edit := &FileEdit{Path: name, PkgPath: pkg.PkgPath, Before: before, After: after, Group: group}
	for i, id := range unitMarks {
		unitLines[i] = *runLine[id]
	}
	for i, line := range manualLines {
		if m := &res.Manual[i]; *line > 0 {
			m.origLine, m.Line = m.Line, *line
		}
	}
	for i, d := range applied {
		edit.Replaced = append(edit.Replaced, Replacement{
			Rule: d.loc.f.Rule, Call: d.loc.name, Strategy: d.strat,
			Before:    Position{File: name, Line: pkg.Fset.Position(d.loc.call.Pos()).Line},
			After:     Position{File: name, Line: afterLines[i]},
			Behaviour: Behaviour(d.strat, opts.DB),
			Notes:     unusedParams(pkg.Fset, file, d.loc.call.Pos(), after),
		})
	}
	for i, r := range unitReplaced {
		r.After = Position{File: name, Line: unitLines[i]}
		r.Behaviour = append(Behaviour(r.Strategy, opts.DB), r.extra...)
		edit.Replaced = append(edit.Replaced, r)
	}
	res.Files = append(res.Files, edit)
	return nil
}

// safePlan turns a bug met while planning into a manual finding rather
// than a crash of the whole run.
func safePlan(fr *fileRewriter, l *located) (p *plan, why, advice string) {
	defer func() {
		if r := recover(); r != nil {
			p, why, advice = nil, fmt.Sprintf("internal error while planning the rewrite (%v); left unchanged", r), ""
		}
	}()
	return fr.plan(l)
}

func safeApply(p *plan) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	p.apply()
	return nil
}

// callAt returns the innermost call expression containing pos.
func callAt(file *ast.File, pos token.Pos) *ast.CallExpr {
	var best *ast.CallExpr
	ast.Inspect(file, func(n ast.Node) bool {
		if n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		if c, ok := n.(*ast.CallExpr); ok {
			best = c
		}
		return true
	})
	return best
}

// DisplayPath returns path relative to root with slashes (path itself when
// it is outside root).
func DisplayPath(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// AfterLine maps a line of the file before the edit to the same line after
// it (a finding left for a person keeps pointing at its code once imports
// or other sites in the file moved it). A line the edit changed maps by
// the offset of the nearest unchanged lines before it.
func (f *FileEdit) AfterLine(line int) int {
	if f == nil || line <= 0 {
		return line
	}
	m := difflib.NewMatcher(difflib.SplitLines(string(f.Before)), difflib.SplitLines(string(f.After)))
	shift := 0
	for _, b := range m.GetMatchingBlocks() {
		if b.Size == 0 {
			continue
		}
		switch {
		case line-1 >= b.A && line-1 < b.A+b.Size:
			return b.B + (line - 1 - b.A) + 1
		case b.A+b.Size <= line-1:
			shift = b.B + b.Size - (b.A + b.Size)
		}
	}
	return line + shift
}

// isRequest reports whether the publish named is a request-reply row: the
// caller waits for the answer, which no outbox row can give.
func isRequest(name string) bool {
	e, ok := catalog.Default().Lookup(name)
	return ok && e.Request
}
