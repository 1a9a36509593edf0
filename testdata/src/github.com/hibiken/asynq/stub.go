package asynq

import "context"

type Task struct{}
type TaskInfo struct{ ID string }
type Option interface{}
type Client struct{}
type ServeMux struct{}

func NewTask(typename string, payload []byte, opts ...Option) *Task     { return &Task{} }
func (c *Client) Enqueue(task *Task, opts ...Option) (*TaskInfo, error) { return nil, nil }
func (c *Client) EnqueueContext(ctx context.Context, task *Task, opts ...Option) (*TaskInfo, error) {
	return nil, nil
}
func (mux *ServeMux) HandleFunc(pattern string, handler func(context.Context, *Task) error) {}
