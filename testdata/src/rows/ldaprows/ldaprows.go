// Package ldaprows covers the LDAP write rows: a directory is the store of
// record of an identity service, and a publish after a change to it is a
// dual write.
package ldaprows

import (
	"github.com/go-ldap/ldap/v3"
	"github.com/nats-io/nats.go"
)

var nc *nats.Conn

func announce() { nc.Publish("users", []byte("{}")) }

func posConn(l *ldap.Conn) {
	l.Add(&ldap.AddRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.Del(&ldap.DelRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.Modify(&ldap.ModifyRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.ModifyDN(&ldap.ModifyDNRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.ModifyWithResult(&ldap.ModifyRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.PasswordModify(&ldap.PasswordModifyRequest{UserIdentity: "uid=a"})
	announce() // want "OBX001"
}

func posClient(l ldap.Client) {
	l.Add(&ldap.AddRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.Del(&ldap.DelRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.Modify(&ldap.ModifyRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.ModifyDN(&ldap.ModifyDNRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.ModifyWithResult(&ldap.ModifyRequest{DN: "uid=a"})
	announce() // want "OBX001"
	l.PasswordModify(&ldap.PasswordModifyRequest{UserIdentity: "uid=a"})
	announce() // want "OBX001"
}

func negAlone(l *ldap.Conn, c ldap.Client) {
	l.Add(&ldap.AddRequest{DN: "uid=a"})
	l.Del(&ldap.DelRequest{DN: "uid=a"})
	l.Modify(&ldap.ModifyRequest{DN: "uid=a"})
	l.ModifyDN(&ldap.ModifyDNRequest{DN: "uid=a"})
	l.ModifyWithResult(&ldap.ModifyRequest{DN: "uid=a"})
	l.PasswordModify(&ldap.PasswordModifyRequest{UserIdentity: "uid=a"})
	c.Add(&ldap.AddRequest{DN: "uid=a"})
	c.Del(&ldap.DelRequest{DN: "uid=a"})
	c.Modify(&ldap.ModifyRequest{DN: "uid=a"})
	c.ModifyDN(&ldap.ModifyDNRequest{DN: "uid=a"})
	c.ModifyWithResult(&ldap.ModifyRequest{DN: "uid=a"})
	c.PasswordModify(&ldap.PasswordModifyRequest{UserIdentity: "uid=a"})
}

// a search is a read: no finding before a publish
func negSearch(l ldap.Client) {
	l.Search(&ldap.SearchRequest{BaseDN: "ou=users"})
	announce()
}
