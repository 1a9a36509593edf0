// Package event stubs the CloudEvents event type.
package event

type Event struct{}

func New() Event                                { return Event{} }
func (e *Event) SetType(t string)               {}
func (e *Event) SetData(ct string, v any) error { return nil }
