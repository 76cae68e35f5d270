package sqlbackend

import (
	"context"
	"errors"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/lakeerr"
)

// statementOutcome is what the commit of the session's last statement
// leaves for the server to act on after the statement returns.
type statementOutcome struct {
	mu sync.Mutex
	// rerunnable: an autocommit statement's commit lost a conflict that a
	// run on the latest snapshot can win (lakeerr.ErrRetryableConflict),
	// and nothing of it was committed.
	rerunnable bool
	// skipped: the commit was found already committed (the same commit
	// user, identifier and rows), so the statement wrote nothing.
	skipped bool
	// reruns counts how often the server has run the statement again.
	reruns int
	// lostOn is the directory of the table the last rerunnable commit
	// lost its conflict on.
	lostOn string
}

// TakeRerunnable reports, once, whether the session's last statement
// failed on a write conflict that re-running it on the latest snapshot can
// resolve: an autocommit statement, whose commit lost to a concurrent one
// and left nothing behind. A lock-based server would have made it wait for
// the other writer and then read the other writer's rows; re-running it
// does the same, so the client never sees the conflict. A failed COMMIT of
// an explicit transaction is never rerunnable: the client has to run the
// transaction again, since its earlier statements read older rows.
func (s *Session) TakeRerunnable() bool {
	s.outcome.mu.Lock()
	defer s.outcome.mu.Unlock()
	r := s.outcome.rerunnable
	s.outcome.rerunnable = false
	return r
}

// TakeSkipped reports, once, whether the session's last statement was
// found already committed, so that it reports no rows affected: it wrote
// none.
func (s *Session) TakeSkipped() bool {
	s.outcome.mu.Lock()
	defer s.outcome.mu.Unlock()
	r := s.outcome.skipped
	s.outcome.skipped = false
	return r
}

// SetReruns tells the session that the statement it runs next is run for
// the nth time after conflicts (0: its first run), for the warning its
// commit adds.
func (s *Session) SetReruns(n int) {
	s.outcome.mu.Lock()
	defer s.outcome.mu.Unlock()
	s.outcome.reruns = n
}

// noteFailedCommit records whether a failed commit to the table at dir
// may be re-run.
func (s *Session) noteFailedCommit(ctx *sql.Context, dir string, err error) {
	s.outcome.mu.Lock()
	defer s.outcome.mu.Unlock()
	s.outcome.rerunnable = errors.Is(err, lakeerr.ErrRetryableConflict) && !explicitTransaction(ctx)
	s.outcome.lostOn = dir
}

// SerializeRerun waits until no other re-run of this process runs on the
// table the session's last statement lost its conflict on, and returns
// the function that ends the re-run's turn; it returns early, with the
// context's error, when the statement is killed. Re-runs of one table
// taking turns is what makes a hot row progress: statements that keep
// colliding on it otherwise all re-run at once, and all but one lose
// again, the way waiters on an InnoDB row lock get it one at a time.
// Statements' first runs do not wait: only those that lost do.
func (s *Session) SerializeRerun(ctx context.Context) (release func(), err error) {
	s.outcome.mu.Lock()
	dir := s.outcome.lostOn
	s.outcome.mu.Unlock()
	turn := s.backend.rerunTurn(dir)
	select {
	case turn <- struct{}{}:
		return func() { <-turn }, nil
	case <-ctx.Done():
		return func() {}, ctx.Err()
	}
}

// rerunTurn is the semaphore re-runs on the table at dir take turns by.
func (b *Backend) rerunTurn(dir string) chan struct{} {
	turn, _ := b.reruns.LoadOrStore(dir, make(chan struct{}, 1))
	return turn.(chan struct{})
}

func (s *Session) noteSkipped() {
	s.outcome.mu.Lock()
	defer s.outcome.mu.Unlock()
	s.outcome.skipped = true
}

// erLockDeadlock is ER_LOCK_DEADLOCK, as a warning code.
const erLockDeadlock = 1213

// warnReruns adds the warning of a statement that committed after being
// run again.
func (s *Session) warnReruns(ctx *sql.Context, db, table string) {
	s.outcome.mu.Lock()
	n := s.outcome.reruns
	s.outcome.mu.Unlock()
	if n > 0 {
		ctx.Warn(erLockDeadlock, "statement was run %d more time(s) on newer snapshots of %s.%s after write-write conflicts with concurrent commits; it committed on the last run", n, db, table)
	}
}
