package generate_test

// componentsUnderTest limits compile tests to generate's own templates.
var componentsUnderTest = []string{"outbox", "inbox", "migrations", "debezium", "root"}
