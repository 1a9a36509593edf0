// Package pool stubs github.com/sourcegraph/conc/pool for the fixtures: a
// bounded worker pool whose Go hands the task to a worker goroutine over a
// channel (starting one when below the limit), and whose Wait waits for
// every task.
package pool

import (
	"context"
	"sync"
)

type Pool struct {
	wg      sync.WaitGroup
	tasks   chan func()
	limiter chan struct{}
}

func New() *Pool { return &Pool{tasks: make(chan func())} }

func (p *Pool) WithMaxGoroutines(n int) *Pool {
	p.limiter = make(chan struct{}, n)
	return p
}

func (p *Pool) WithContext(ctx context.Context) *ContextPool {
	return &ContextPool{pool: p, ctx: ctx}
}

// Go never calls f itself: it starts a worker when below the limit and
// sends f on the task channel, where a worker goroutine takes it and runs it.
func (p *Pool) Go(f func()) {
	select {
	case p.limiter <- struct{}{}:
		p.wg.Add(1)
		go p.worker()
		p.tasks <- f
	case p.tasks <- f:
	}
}

func (p *Pool) worker() {
	defer p.wg.Done()
	for f := range p.tasks {
		f()
	}
}

func (p *Pool) Wait() {
	close(p.tasks)
	p.wg.Wait()
}

type ContextPool struct {
	pool *Pool
	ctx  context.Context
	mu   sync.Mutex
	errs []error
}

func (p *ContextPool) WithMaxGoroutines(n int) *ContextPool {
	p.pool.WithMaxGoroutines(n)
	return p
}

func (p *ContextPool) Go(f func(ctx context.Context) error) {
	p.pool.Go(func() {
		if err := f(p.ctx); err != nil {
			p.mu.Lock()
			p.errs = append(p.errs, err)
			p.mu.Unlock()
		}
	})
}

func (p *ContextPool) Wait() error {
	p.pool.Wait()
	if len(p.errs) > 0 {
		return p.errs[0]
	}
	return nil
}
