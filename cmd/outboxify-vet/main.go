// Command outboxify-vet runs outboxify's analyzers under go vet: the
// dual-write rules (OBX0xx) and the consumer rules (OBX101, OBX102):
//
//	go install github.com/outboxify/outboxify/cmd/outboxify-vet@latest
//	go vet -vettool=$(which outboxify-vet) ./...
//
// It sees one package at a time, so it reports the findings of
// `outboxify scan` minus those that needed an interface resolved across
// packages. Flags: -outboxify.tests, -outboxify.config, -outboxify.publishers,
// -outboxify.writers, -outboxify.exclude; -outboxconsumer.tests,
// -outboxconsumer.external.
package main

import (
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/outboxify/outboxify/analyzer/consumer"
	"github.com/outboxify/outboxify/analyzer/dualwrite"
)

func main() { unitchecker.Main(dualwrite.Analyzer, consumer.Analyzer) }
