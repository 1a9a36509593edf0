// Command outboxify-vet runs outboxify's dual-write analyzer under go vet:
//
//	go install github.com/outboxify/outboxify/cmd/outboxify-vet@latest
//	go vet -vettool=$(which outboxify-vet) ./...
//
// It sees one package at a time, so it reports the findings of
// `outboxify scan` minus those that needed an interface resolved across
// packages. Flags: -outboxify.tests, -outboxify.config, -outboxify.publishers,
// -outboxify.writers, -outboxify.exclude.
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

func main() { unitchecker.Main(dualwrite.Analyzer) }
