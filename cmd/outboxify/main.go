// Command outboxify finds dual writes (a database write and a broker publish
// that are not atomic) in Go code, rewrites them into transactional outbox
// inserts, and generates the migration, relay, inbox and ops files around them.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
