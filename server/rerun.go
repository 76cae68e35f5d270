package server

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/lakesql/lakesql/sqlbackend"
)

// sessionRegistry finds the lakesql session of a connection, which the
// handler asks what a statement's commit left behind.
type sessionRegistry struct {
	mu     sync.Mutex
	byConn map[uint32]*sqlbackend.Session
}

func newSessionRegistry() *sessionRegistry {
	return &sessionRegistry{byConn: map[uint32]*sqlbackend.Session{}}
}

func (r *sessionRegistry) add(id uint32, s *sqlbackend.Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byConn[id] = s
}

func (r *sessionRegistry) remove(id uint32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.byConn, id)
}

func (r *sessionRegistry) get(id uint32) *sqlbackend.Session {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byConn[id]
}

// rerunPolicy says how long an autocommit statement that loses
// write-write conflicts is run again, and how long to wait between runs.
type rerunPolicy struct {
	// timeout bounds the reruns of one statement; 0 turns them off.
	timeout time.Duration
	// wait sleeps before the nth rerun (from 1), returning early with the
	// context's error.
	wait func(ctx context.Context, n int) error
}

// Bounds of the wait between reruns: short at first, since the winner's
// snapshot is already published, then growing, so that writers that keep
// colliding on one hot row spread out.
const (
	firstRerunWait = time.Millisecond
	maxRerunWait   = 64 * time.Millisecond
)

func newRerunPolicy(timeout time.Duration) rerunPolicy {
	return rerunPolicy{timeout: timeout, wait: jitteredWait}
}

// jitteredWait waits firstRerunWait doubled per rerun, capped at
// maxRerunWait, times a uniform factor in [0.5, 1.5).
func jitteredWait(ctx context.Context, n int) error {
	d := firstRerunWait << min(n-1, 6)
	d = min(d, maxRerunWait)
	d = time.Duration(float64(d) * (0.5 + rand.Float64()))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// runStatement runs a statement with run, and runs it again while its
// commit loses a write-write conflict that a run on a newer snapshot can
// win (Session.TakeRerunnable), until the policy's timeout, each run
// again in its turn among the process's re-runs on the table
// (Session.SerializeRerun): an autocommit
// UPDATE then behaves as with InnoDB's row locks, whose waiter reads the
// winner's row when it gets the lock, and the client sees no conflict.
// The last error is returned when the time is up. A statement found
// already committed reports no rows affected, since it wrote none. A
// failed autocommit statement's transaction ends with it
// (Session.EndFailedStatement).
func (h *handler) runStatement(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn, run func(mysql.ResultSpoolFn) error) error {
	callback = noRowsWhenSkipped(func() *sqlbackend.Session { return h.sessions.get(c.ConnectionID) }, padFractions(callback))
	deadline := time.Now().Add(h.rerun.timeout)
	release := func() {}
	for n := 1; ; n++ {
		err := run(callback)
		release()
		// GMS builds a connection's session at its first statement.
		sess := h.sessions.get(c.ConnectionID)
		if err == nil || sess == nil {
			if sess != nil {
				sess.SetReruns(0)
			}
			return err
		}
		sess.EndFailedStatement()
		if !sess.TakeRerunnable() || !time.Now().Before(deadline) || h.rerun.wait(ctx, n) != nil {
			sess.SetReruns(0)
			return err
		}
		var turnErr error
		if release, turnErr = sess.SerializeRerun(ctx); turnErr != nil {
			sess.SetReruns(0)
			return err
		}
		h.metrics.RecordRerun(query)
		sess.SetReruns(n)
	}
}

// noRowsWhenSkipped reports 0 rows affected for a statement whose commit
// was found already committed: its rows were written by the earlier run.
func noRowsWhenSkipped(session func() *sqlbackend.Session, callback mysql.ResultSpoolFn) mysql.ResultSpoolFn {
	return func(r *sqltypes.Result, more bool) error {
		if r != nil && len(r.Fields) == 0 {
			if sess := session(); sess != nil && sess.TakeSkipped() {
				r.RowsAffected = 0
			}
		}
		return callback(r, more)
	}
}
