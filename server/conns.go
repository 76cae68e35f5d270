package server

import (
	"crypto/tls"
	"encoding/binary"
	"net"
	"sync"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/netutil"
	"github.com/sirupsen/logrus"
)

// connTracker counts and reaches every client connection. It replaces
// vitess's own MaxConns, which closes the socket of a client over the limit
// (go-mysql-server.md §1.3), and it is how a shutdown drains connections.
//
// A connection is counted from the moment the listener accepts it until
// the handler's ConnectionClosed: vitess calls NewConnection and defers
// ConnectionClosed for every connection the listener returns.
type connTracker struct {
	max int // 0: no limit

	mu         sync.Mutex
	open       int
	conns      map[*mysql.Conn]net.Conn // the socket under any TLS layer
	isDraining bool
	drained    chan struct{} // closed when draining and open reaches 0
}

func newConnTracker(max int) *connTracker {
	return &connTracker{max: max, conns: map[*mysql.Conn]net.Conn{}, drained: make(chan struct{})}
}

// reserve counts a connection the listener accepted, if there is room.
func (t *connTracker) reserve() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.max > 0 && t.open >= t.max {
		return false
	}
	t.open++
	return true
}

// add records an accepted connection before its handshake. Its socket is
// taken now, on the connection's own goroutine, because vitess later
// replaces c.Conn with a TLS layer on that goroutine.
func (t *connTracker) add(c *mysql.Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.conns[c] = c.Conn
	if t.isDraining {
		stopReading(c.Conn)
	}
}

// remove forgets a closed connection and frees its slot.
func (t *connTracker) remove(c *mysql.Conn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.conns, c)
	t.open--
	if t.isDraining && t.open == 0 {
		close(t.drained)
	}
}

// drain makes every connection end after its current command: the read
// side of each socket is shut, so the statement being run (and its
// commit) finishes and its result is written, and the next read of the
// connection's loop sees end of file. drained is closed once all are gone.
func (t *connTracker) drain() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.isDraining {
		t.isDraining = true
		for _, sock := range t.conns {
			stopReading(sock)
		}
		if t.open == 0 {
			close(t.drained)
		}
	}
	return t.drained
}

// closeAll cuts every remaining connection, for when draining takes too
// long.
func (t *connTracker) closeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, sock := range t.conns {
		_ = sock.Close()
	}
}

// stopReading shuts the read side of a TCP socket, or closes a socket that
// cannot be half-closed.
func stopReading(sock net.Conn) {
	for {
		switch c := sock.(type) {
		case interface{ CloseRead() error }:
			_ = c.CloseRead()
			return
		case *tls.Conn:
			sock = c.NetConn()
		case netutil.ConnWithTimeouts:
			sock = c.Conn
		default:
			_ = sock.Close()
			return
		}
	}
}

// limitListener hands vitess only the connections within the limit, and
// answers the others itself with MySQL error 1040.
type limitListener struct {
	net.Listener
	tracker *connTracker
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.tracker.reserve() {
			if tcp, ok := conn.(*net.TCPConn); ok {
				return unpolledConn{tcp}, nil
			}
			return conn, nil
		}
		go refuseTooMany(conn)
	}
}

// unpolledConn is an accepted TCP connection that go-mysql-server does not
// recognize as one. For every statement go-mysql-server's handler finds a
// *net.TCPConn's inode through /proc (a dup, a readlink and a close, about
// 20 µs of a 300 µs point select) to poll the socket while the result
// streams; watchClient already watches every statement's client with one
// non-blocking peek per interval. Its methods are the TCP connection's.
type unpolledConn struct{ *net.TCPConn }

// refuseWriteTimeout bounds the write of the refusal to a client that does
// not read.
const refuseWriteTimeout = 5 * time.Second

// refuseTooMany sends ER_CON_COUNT_ERROR as the first packet, in place of
// the handshake, which is what MySQL does: clients report it as error 1040
// before authenticating. Like MySQL it carries no SQLSTATE marker, because
// the client has not yet said it speaks protocol 4.1.
func refuseTooMany(conn net.Conn) {
	defer conn.Close()
	logrus.WithField("client", conn.RemoteAddr().String()).Warn("refused connection: too many connections")
	_ = conn.SetWriteDeadline(time.Now().Add(refuseWriteTimeout))
	_, _ = conn.Write(tooManyConnectionsPacket())
}

func tooManyConnectionsPacket() []byte {
	const message = "Too many connections"
	payload := []byte{0xff, 0, 0}
	binary.LittleEndian.PutUint16(payload[1:], mysql.ERConCount)
	payload = append(payload, message...)
	header := []byte{byte(len(payload)), byte(len(payload) >> 8), byte(len(payload) >> 16), 0}
	return append(header, payload...)
}
