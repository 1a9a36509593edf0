// Package sdk has a team's goroutine helper: Exec records the closure in
// a struct (name, status, the func) and exec starts a goroutine that calls
// the recorded func with panic recovery. Schedule records a job that a
// scheduler runs later: registering, not running.
package sdk

import (
	"context"
	"sync"
)

type GoRoutine struct {
	ctx    context.Context
	Name   string
	Func   func(ctx context.Context)
	Active bool
}

type GoRoutines struct{}

func (m *GoRoutines) exec(g *GoRoutine) {
	go func(ctx context.Context) {
		defer func() {
			if r := recover(); r != nil {
				g.Active = false
			}
		}()
		g.Active = true
		g.Func(ctx)
	}(g.ctx)
}

// Exec runs fn in a goroutine with a panic recovery.
func (m *GoRoutines) Exec(c context.Context, name string, fn func(ctx context.Context)) {
	g := &GoRoutine{ctx: c, Name: name, Func: fn}
	m.exec(g)
}

// Scheduler keeps jobs for its loop (started at start-up).
type Scheduler struct {
	mu   sync.Mutex
	jobs []*GoRoutine
}

// Schedule keeps fn for the scheduler loop: it does not run it.
func (s *Scheduler) Schedule(c context.Context, name string, fn func(ctx context.Context)) {
	g := &GoRoutine{ctx: c, Name: name, Func: fn}
	s.mu.Lock()
	s.jobs = append(s.jobs, g)
	s.mu.Unlock()
}

// Loop runs the due jobs.
func (s *Scheduler) Loop(ctx context.Context) {
	for ctx.Err() == nil {
		s.mu.Lock()
		jobs := s.jobs
		s.jobs = nil
		s.mu.Unlock()
		for _, j := range jobs {
			j.Func(j.ctx)
		}
	}
}
