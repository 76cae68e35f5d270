package sqlbackend

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/lease"
)

// A session's commits carry a commit user and identifier, which make
// retries idempotent (see README, Idempotent corrections):
//   - by default the session's own user, lakesql-<uuid>, with identifiers
//     1, 2, 3…: no other writer ever uses them;
//   - lakesql_commit_user and lakesql_commit_identifier both set: the
//     caller's pair, which a re-run of the same rows finds committed;
//   - lakesql_commit_user alone: lakesql picks the identifiers. Two live
//     writers doing so under one user would pick colliding identifiers,
//     so the session claims the user on each table it writes (see
//     lease.Claimant): in this process, and in the table for other
//     servers. The second writer is refused at its first write.

// commitIdentity is the (user, identifier) of the session's next commit to
// the table at dir.
func (s *Session) commitIdentity(ctx *sql.Context, dir string) (string, int64, error) {
	user, id, err := identityVars(ctx)
	switch {
	case err != nil:
		return "", 0, err
	case user == "":
		return s.commitUser, s.nextIdentifier.Add(1), nil
	case id > 0:
		return user, id, nil
	}
	if err := s.claimUser(ctx, dir, user); err != nil {
		return "", 0, err
	}
	return user, s.clockIdentifier(), nil
}

// identityVars reads the session's commit user and identifier variables.
func identityVars(ctx *sql.Context) (user string, id int64, err error) {
	user, _ = stringVar(ctx, VarCommitUser)
	id, _ = intVar(ctx, VarCommitIdentifier)
	if user == "" && id > 0 {
		return "", 0, fmt.Errorf("%s is set without %s: an identifier means nothing without its user", VarCommitIdentifier, VarCommitUser)
	}
	return user, id, nil
}

// claimBeforeWrite claims the commit user the session's commits to the
// table at dir will carry, if lakesql picks its identifiers, so that a
// second writer under the user is refused before it writes a row.
func (s *Session) claimBeforeWrite(ctx *sql.Context, dir string) error {
	user, id, err := identityVars(ctx)
	if err != nil || user == "" || id > 0 {
		return err
	}
	return s.claimUser(ctx, dir, user)
}

// clockIdentifier is the current epoch millisecond, or one more than the
// last identifier this session used if the clock has not passed it.
func (s *Session) clockIdentifier() int64 {
	for {
		last := s.nextIdentifier.Load()
		next := max(s.backend.opts.Now().UnixMilli(), last+1)
		if s.nextIdentifier.CompareAndSwap(last, next) {
			return next
		}
	}
}

// raiseIdentifiers makes the session's next identifier exceed newest.
func (s *Session) raiseIdentifiers(newest int64) {
	for {
		last := s.nextIdentifier.Load()
		if last >= newest || s.nextIdentifier.CompareAndSwap(last, newest) {
			return
		}
	}
}

// claimKey names a (table, commit user) pair.
type claimKey struct{ dir, user string }

// sessionClaims are the commit users a session claimed, with when it last
// wrote each claim to storage, by its own clock.
type sessionClaims struct {
	mu      sync.Mutex
	written map[claimKey]time.Time
}

// claimUser makes the session the only writer picking identifiers for
// user on the table at dir: in this process (no I/O), and in the table,
// whose claim it renews when a third of its TTL has passed. On first
// claiming a pair, it raises the session's identifiers above the newest
// the user committed to the table.
func (s *Session) claimUser(ctx context.Context, dir, user string) error {
	key := claimKey{dir: dir, user: user}
	if holder := s.backend.claims.take(key, s); holder != s {
		return &lease.ClaimedError{User: user, TableDir: dir, Owner: holder.describe() + " of this server"}
	}
	s.claims.mu.Lock()
	defer s.claims.mu.Unlock()
	last, held := s.claims.written[key]
	now := s.backend.opts.Now()
	if held && now.Sub(last) < lease.ClaimTTL/3 {
		return nil
	}
	if err := s.claimant().Claim(ctx, s.backend.opts.FileIO, dir, user); err != nil {
		s.backend.claims.release(key, s)
		delete(s.claims.written, key)
		return err
	}
	if !held {
		if err := s.raiseAboveNewest(ctx, dir, user); err != nil {
			return err
		}
	}
	s.claims.written[key] = now
	return nil
}

// raiseAboveNewest raises the session's identifiers above the newest user
// committed to the table, so that no clock, however far behind another
// server's, makes them older.
func (s *Session) raiseAboveNewest(ctx context.Context, dir, user string) error {
	c, err := commit.New(commit.Options{FileIO: s.backend.opts.FileIO, TableDir: dir})
	if err != nil {
		return err
	}
	newest, err := c.NewestIdentifier(ctx, user)
	if err != nil {
		return err
	}
	s.raiseIdentifiers(newest)
	return nil
}

// claimant is the session's identity in claim files.
func (s *Session) claimant() lease.Claimant {
	return lease.Claimant{Holder: s.commitUser, Owner: s.describe() + " of " + processOwner, Now: s.backend.opts.Now}
}

// describe names the session for a writer its claim refuses.
func (s *Session) describe() string { return fmt.Sprintf("connection %d", s.ID()) }

// processOwner names this process in claim files.
var processOwner = func() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("lakesql pid %d on %s", os.Getpid(), host)
}()

// releaseClaims gives up the session's claims, when it ends. GMS ends a
// session under the lock that admits new connections, so this costs them
// one delete per claimed table; only sessions that named a commit user
// without identifiers hold claims. A claim left behind ages out after its
// TTL.
func (s *Session) releaseClaims(ctx context.Context) {
	s.claims.mu.Lock()
	defer s.claims.mu.Unlock()
	c := s.claimant()
	for key := range s.claims.written {
		_ = c.Release(ctx, s.backend.opts.FileIO, key.dir, key.user)
		s.backend.claims.release(key, s)
	}
	clear(s.claims.written)
}

// processClaims are the claims of this process's sessions.
type processClaims struct {
	mu     sync.Mutex
	holder map[claimKey]*Session
}

// take gives the pair to s unless another session holds it, and returns
// the holder.
func (p *processClaims) take(key claimKey, s *Session) *Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h, ok := p.holder[key]; ok {
		return h
	}
	if p.holder == nil {
		p.holder = map[claimKey]*Session{}
	}
	p.holder[key] = s
	return s
}

func (p *processClaims) release(key claimKey, s *Session) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.holder[key] == s {
		delete(p.holder, key)
	}
}

// SessionEnd implements sql.LifecycleAwareSession: a closed connection
// gives up its commit-user claims at once, so that the user is free for a
// reconnecting client.
func (s *Session) SessionEnd() { s.releaseClaims(context.Background()) }

// CommandBegin implements sql.LifecycleAwareSession.
func (s *Session) CommandBegin() error { return nil }

// CommandEnd implements sql.LifecycleAwareSession.
func (s *Session) CommandEnd() {}

var _ sql.LifecycleAwareSession = (*Session)(nil)
