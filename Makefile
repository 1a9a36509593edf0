# The two set-up commands (see README.md):
#   make example   runs outboxify scan on the shipped example module
#   make test      runs every test (needs the servers listed in README.md) and
#                  ends with a summary: tests run, skipped, what to start
#   make services  starts the installed servers the tests use
GO ?= go

.PHONY: build test services example vet bench

build:
	$(GO) build ./...

test:
	@# the example-module tests build offline from the module cache: fill it first
	$(GO) mod download
	cd testdata/example && $(GO) mod download
	cd analyzer/catalog/testdata/realclients && $(GO) mod download
	@# the CLI scripts build offline too: every module their go.mod files reach
	bash .ci/script-modules
	$(GO) vet ./...
	@# -json through testsummary: a line per package as usual, then one
	@# summary line with the skipped tests grouped by what to start
	$(GO) build -o $${TMPDIR:-/tmp}/outboxify-testsummary ./internal/testsummary
	$(GO) test -json -count=1 -timeout 40m ./... | $${TMPDIR:-/tmp}/outboxify-testsummary

services:
	bash .ci/services

example:
	@# built, not `go run`: go run turns every failure into exit 1, hiding exit 2
	$(GO) build -o $${TMPDIR:-/tmp}/outboxify-example ./cmd/outboxify
	$${TMPDIR:-/tmp}/outboxify-example scan -C testdata/example ./... || test $$? -eq 1  # 1 = findings, expected here

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...
