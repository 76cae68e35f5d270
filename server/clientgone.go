package server

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"sync/atomic"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/netutil"
)

// clientCheckInterval is how often a running statement's client is
// checked. A check is one non-blocking system call.
const clientCheckInterval = 100 * time.Millisecond

// errClientGone cancels the statement of a client that closed its
// connection: nobody is left to read the result, so the work (a DuckDB
// query, a scan) stops instead of running to the end.
var errClientGone = errors.New("the client closed its connection")

// watchClient returns ctx for a statement of c, cancelled when the client
// closes its connection while the statement runs. go-mysql-server's own
// poll is off (unpolledConn), and vitess reads the socket only between
// statements. The first check comes an interval after the start: most
// statements are over by then, and cost a timer, not a goroutine. stop
// ends the watch.
func (h *handler) watchClient(ctx context.Context, c *mysql.Conn) (watched context.Context, stop func()) {
	sock := h.tracker.socket(c)
	if sock == nil {
		return ctx, func() {}
	}
	watched, cancel := context.WithCancelCause(ctx)
	var timer atomic.Pointer[time.Timer]
	timer.Store(time.AfterFunc(clientCheckInterval, func() {
		if watched.Err() != nil {
			return
		}
		// Peek first: a drain marks itself before it shuts the sockets,
		// so a peek that saw a drained socket is followed by draining()
		// true.
		if peerClosed(sock) && !h.tracker.draining() {
			cancel(errClientGone)
			return
		}
		if t := timer.Load(); t != nil {
			t.Reset(clientCheckInterval)
		}
	}))
	return watched, func() {
		cancel(nil)
		timer.Load().Stop()
	}
}

// socket is c's socket under any TLS or timeout layer, nil when c is not
// tracked.
func (t *connTracker) socket(c *mysql.Conn) net.Conn {
	t.mu.Lock()
	sock := t.conns[c]
	t.mu.Unlock()
	for {
		switch s := sock.(type) {
		case *tls.Conn:
			sock = s.NetConn()
		case netutil.ConnWithTimeouts:
			sock = s.Conn
		default:
			return sock
		}
	}
}

// draining says whether a shutdown has shut the read side of every
// socket, after which a socket looks closed to peerClosed though its
// client still waits for the result.
func (t *connTracker) draining() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.isDraining
}
