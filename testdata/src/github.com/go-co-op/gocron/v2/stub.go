// Package gocron stubs the scheduler API of github.com/go-co-op/gocron/v2 that the catalog's Later rows name.
package gocron

type Task func() task

type task struct {
	function   any
	parameters []any
}

func NewTask(function any, parameters ...any) Task {
	return func() task { return task{function: function, parameters: parameters} }
}
