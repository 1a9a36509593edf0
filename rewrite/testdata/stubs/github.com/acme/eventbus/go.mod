module github.com/acme/eventbus

go 1.22
