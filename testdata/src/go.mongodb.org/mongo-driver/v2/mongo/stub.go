package mongo

import "context"

type Collection struct{}
type Database struct{}
type Client struct{}
type SingleResult struct{}
type Session struct{}

func (s *Session) WithTransaction(ctx context.Context, fn func(ctx context.Context) (any, error)) (any, error) {
	return nil, nil
}
func (c *Client) StartSession() (*Session, error) { return nil, nil }

func (c *Client) Database(name string) *Database       { return nil }
func (d *Database) Collection(name string) *Collection { return nil }

func (c *Collection) InsertOne(ctx context.Context, doc any) (any, error)            { return nil, nil }
func (c *Collection) InsertMany(ctx context.Context, docs []any) (any, error)        { return nil, nil }
func (c *Collection) UpdateOne(ctx context.Context, filter, update any) (any, error) { return nil, nil }
func (c *Collection) UpdateMany(ctx context.Context, filter, update any) (any, error) {
	return nil, nil
}
func (c *Collection) UpdateByID(ctx context.Context, id, update any) (any, error)   { return nil, nil }
func (c *Collection) ReplaceOne(ctx context.Context, filter, repl any) (any, error) { return nil, nil }
func (c *Collection) DeleteOne(ctx context.Context, filter any) (any, error)        { return nil, nil }
func (c *Collection) DeleteMany(ctx context.Context, filter any) (any, error)       { return nil, nil }
func (c *Collection) BulkWrite(ctx context.Context, models []any) (any, error)      { return nil, nil }
func (c *Collection) FindOneAndUpdate(ctx context.Context, filter, update any) *SingleResult {
	return nil
}
func (c *Collection) FindOneAndReplace(ctx context.Context, filter, repl any) *SingleResult {
	return nil
}
func (c *Collection) FindOneAndDelete(ctx context.Context, filter any) *SingleResult { return nil }
func (c *Collection) FindOne(ctx context.Context, filter any) *SingleResult          { return nil }
