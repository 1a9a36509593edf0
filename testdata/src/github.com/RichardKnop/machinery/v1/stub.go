package machinery

import (
	"context"

	"github.com/RichardKnop/machinery/v1/tasks"
)

type AsyncResult struct{}

type Server struct{}

func (server *Server) SendTask(signature *tasks.Signature) (*AsyncResult, error) { return nil, nil }
func (server *Server) SendTaskWithContext(ctx context.Context, signature *tasks.Signature) (*AsyncResult, error) {
	return nil, nil
}
func (server *Server) SendGroup(group *tasks.Group, sendConcurrency int) ([]*AsyncResult, error) {
	return nil, nil
}
func (server *Server) SendGroupWithContext(ctx context.Context, group *tasks.Group, sendConcurrency int) ([]*AsyncResult, error) {
	return nil, nil
}
func (server *Server) RegisterTask(name string, taskFunc interface{}) error { return nil }
