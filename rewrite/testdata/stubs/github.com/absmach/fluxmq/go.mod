module github.com/absmach/fluxmq

go 1.22
