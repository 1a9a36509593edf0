// Package ldap stubs github.com/go-ldap/ldap/v3: a directory's writes.
package ldap

type AddRequest struct{ DN string }
type DelRequest struct{ DN string }
type ModifyRequest struct{ DN string }
type ModifyDNRequest struct{ DN string }
type ModifyResult struct{}
type PasswordModifyRequest struct{ UserIdentity string }
type PasswordModifyResult struct{}
type SearchRequest struct{ BaseDN string }
type SearchResult struct{}

type Conn struct{}

func (l *Conn) Add(addRequest *AddRequest) error                         { return nil }
func (l *Conn) Del(delRequest *DelRequest) error                         { return nil }
func (l *Conn) Modify(modifyRequest *ModifyRequest) error                { return nil }
func (l *Conn) ModifyDN(m *ModifyDNRequest) error                        { return nil }
func (l *Conn) ModifyWithResult(r *ModifyRequest) (*ModifyResult, error) { return nil, nil }
func (l *Conn) PasswordModify(r *PasswordModifyRequest) (*PasswordModifyResult, error) {
	return nil, nil
}
func (l *Conn) Search(r *SearchRequest) (*SearchResult, error) { return nil, nil }

type Client interface {
	Add(*AddRequest) error
	Del(*DelRequest) error
	Modify(*ModifyRequest) error
	ModifyDN(*ModifyDNRequest) error
	ModifyWithResult(*ModifyRequest) (*ModifyResult, error)
	PasswordModify(*PasswordModifyRequest) (*PasswordModifyResult, error)
	Search(*SearchRequest) (*SearchResult, error)
}
