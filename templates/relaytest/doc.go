// Package relaytest proves the generated relay (templates/files/relay,
// relaycmd and ops): it renders the relay for every database and broker into
// one temporary module, builds and vets it with one go command, and runs the
// generated code's tests (rendered from testdata/relay_test.go.tmpl) against
// the real servers: PostgreSQL, MariaDB, NATS JetStream, RabbitMQ, Redis,
// Kafka through franz-go's kfake, Pub/Sub through pstest, SNS through goaws.
package relaytest
