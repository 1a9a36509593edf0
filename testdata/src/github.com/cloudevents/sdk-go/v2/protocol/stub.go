// Package protocol stubs the CloudEvents protocol result.
package protocol

type Result error
