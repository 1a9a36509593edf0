// Package mgo stubs the mgo MongoDB driver: the Collection writes the
// catalog names, with their real signatures.
package mgo

type ChangeInfo struct{ Updated, Removed int }

type Collection struct{}

func (c *Collection) Insert(docs ...interface{}) error                      { return nil }
func (c *Collection) Update(selector interface{}, update interface{}) error { return nil }
func (c *Collection) UpdateId(id interface{}, update interface{}) error     { return nil }
func (c *Collection) UpdateAll(selector interface{}, update interface{}) (info *ChangeInfo, err error) {
	return nil, nil
}
func (c *Collection) Upsert(selector interface{}, update interface{}) (info *ChangeInfo, err error) {
	return nil, nil
}
func (c *Collection) UpsertId(id interface{}, update interface{}) (info *ChangeInfo, err error) {
	return nil, nil
}
func (c *Collection) Remove(selector interface{}) error                            { return nil }
func (c *Collection) RemoveId(id interface{}) error                                { return nil }
func (c *Collection) RemoveAll(selector interface{}) (info *ChangeInfo, err error) { return nil, nil }
