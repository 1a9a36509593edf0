// Package gocron stubs the scheduler API of github.com/go-co-op/gocron that the catalog's Later rows name.
package gocron

type Job struct{ fn interface{} }

type Scheduler struct{ jobs []*Job }

func NewScheduler() *Scheduler { return &Scheduler{} }

func (s *Scheduler) Every(interval interface{}) *Scheduler { return s }

func (s *Scheduler) Do(jobFun interface{}, params ...interface{}) (*Job, error) {
	j := &Job{fn: jobFun}
	s.jobs = append(s.jobs, j)
	return j, nil
}
