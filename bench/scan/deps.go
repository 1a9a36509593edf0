//go:build tools

// Package bench pins the large public module whose packages the scan
// benchmark analyzes; nothing here is built.
package bench

import _ "github.com/nats-io/nats-server/v2/server"
