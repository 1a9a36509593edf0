// Package generate owns the pipeline behind `outboxify generate` (and the
// generation step of `outboxify fix`): it detects a project's database,
// driver, broker and migration tool from go.mod and existing files, renders
// the templates into files held as data, compares them with what is on disk,
// and applies the result atomically.
//
// The API other commands call:
//
//	cfg, det, err := generate.Detect(dir)          // settings found in the project (or its last run), printable
//	cfg = generate.Override(cfg, flags)            // flags win over detection
//	cs, err := generate.Plan(dir, cfg, generate.Options{Out: det.Out}) // det.Out: the last run's --out
//	fmt.Print(cs.Summary())                        // create / update / unchanged / conflict per file
//	fmt.Print(generate.Diff(cs))                   // unified diff, writes nothing
//	err = cs.Apply(force)                          // atomic: all files or none
//
// Files outboxify generated are tracked in .outboxify/generated.json (path
// -> sha256 of the content as generated), with the run's settings, which
// the next Detect reuses (flags like --relay debezium leave no trace in
// go.mod). A manifest rather than a hash
// comment in each file, because several outputs cannot carry a comment
// (the Debezium connector config is JSON) and a comment would make every
// template change show up in the generated text twice. A file on disk whose
// hash still matches the manifest was not edited by a person and is
// updated freely; any other differing file is a conflict that only --force
// overwrites.
//
// Migrations are found again by the marker line "-- outboxify:migration
// outbox", so a re-run reuses the existing version instead of adding a
// second migration; a new migration continues the project's numbering
// (timestamps or zero-padded sequence) and, with atlas, atlas.sum is
// recomputed over the whole directory.
package generate
