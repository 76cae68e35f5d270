package server

import (
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
)

// clientHosts is go-mysql-server's process list with MySQL's Host column:
// the client's address and port. go-mysql-server lists a connection under
// its account's host pattern ('%', 'localhost') once it is ready, which
// tells a DBA nothing about where a runaway query comes from.
type clientHosts struct {
	sql.ProcessList
	mu        sync.Mutex
	addresses map[uint32]string
}

func newClientHosts(inner sql.ProcessList) *clientHosts {
	return &clientHosts{ProcessList: inner, addresses: map[uint32]string{}}
}

// AddConnection implements sql.ProcessList, remembering the address.
func (p *clientHosts) AddConnection(id uint32, addr string) {
	p.mu.Lock()
	p.addresses[id] = addr
	p.mu.Unlock()
	p.ProcessList.AddConnection(id, addr)
}

// ConnectionReady implements sql.ProcessList: the connection is listed
// with its user and its client's address.
func (p *clientHosts) ConnectionReady(sess sql.Session) {
	p.mu.Lock()
	addr, ok := p.addresses[sess.ID()]
	p.mu.Unlock()
	if ok {
		sess = addressedSession{Session: sess, address: addr}
	}
	p.ProcessList.ConnectionReady(sess)
}

// RemoveConnection implements sql.ProcessList.
func (p *clientHosts) RemoveConnection(id uint32) {
	p.mu.Lock()
	delete(p.addresses, id)
	p.mu.Unlock()
	p.ProcessList.RemoveConnection(id)
}

// addressedSession is a session whose client is named by its address for
// the process list only; privilege checks keep the account's host.
type addressedSession struct {
	sql.Session
	address string
}

func (s addressedSession) Client() sql.Client {
	c := s.Session.Client()
	c.Address = s.address
	return c
}
