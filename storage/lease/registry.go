package lease

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"reflect"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/internal/ids"
	"github.com/lakesql/lakesql/storage/lakeerr"
)

// ErrExpired is wrapped by the errors of a holder whose lease was lost: it
// could not renew it in time, or found its file deleted. The files it
// wrote under the lease may have been deleted by orphan removal, so they
// must not be committed: write them again. It is a terminal conflict.
var ErrExpired = fmt.Errorf("write lease expired: %w", lakeerr.ErrTerminalConflict)

// Config configures a Registry. Every source of nondeterminism of leases
// is here.
type Config struct {
	// TTL is how long a lease lives without renewal; DefaultTTL if zero,
	// at least a millisecond. It must exceed by far the clock difference
	// between the processes that remove orphans and the storage.
	TTL time.Duration
	// Now is the holders' clock, which measures how long ago a generation
	// started and was renewed; only its differences matter. Default
	// time.Now.
	Now func() time.Time
	// NewUUID names the lease files. Default: random version-4 UUIDs.
	NewUUID func() string
	// Owner is recorded in the lease files for whoever finds them. Default:
	// "lakesql pid <pid> on <host>".
	Owner string
}

// Registry hands out the leases of one process (see the package doc,
// Sharing). It is safe for concurrent use.
type Registry struct {
	ttl      time.Duration
	now      func() time.Time
	newUUID  func() string
	owner    string
	disabled bool

	mu     sync.Mutex
	tables map[tableKey]*tableLeases
}

// tableKey names a table the way holders reach it.
type tableKey struct {
	io  fileio.FileIO
	dir string
}

// tableLeases are the generations of one table; Registry.mu guards them.
type tableLeases struct {
	// current is the generation new holders join, if joinable.
	current *generation
	// starting is closed when the start of a generation in progress ends.
	starting chan struct{}
	// held counts the generations with holders.
	held int
}

var defaultRegistry = NewRegistry(Config{})

// Default is the process's registry, which storage/write, storage/commit
// and storage/compact use unless told otherwise.
func Default() *Registry { return defaultRegistry }

// Disabled returns a registry that leases nothing: Acquire returns a nil
// Handle without any I/O. It is for tests that trace a writer's I/O
// operation by operation; files written under it are protected from orphan
// removal by age only.
func Disabled() *Registry { return &Registry{disabled: true} }

// NewRegistry returns a registry configured by cfg.
func NewRegistry(cfg Config) *Registry {
	r := &Registry{ttl: cfg.TTL, now: cfg.Now, newUUID: cfg.NewUUID, owner: cfg.Owner, tables: map[tableKey]*tableLeases{}}
	if r.ttl == 0 {
		r.ttl = DefaultTTL
	}
	r.ttl = max(r.ttl, time.Millisecond)
	if r.now == nil {
		r.now = time.Now
	}
	if r.newUUID == nil {
		r.newUUID = ids.NewUUID
	}
	if r.owner == "" {
		host, _ := os.Hostname()
		r.owner = fmt.Sprintf("lakesql pid %d on %s", os.Getpid(), host)
	}
	return r
}

// The points of a generation's life, as fractions of the TTL (see the
// package doc).
func (r *Registry) renewAfter() time.Duration  { return r.ttl / 3 }
func (r *Registry) rotateAfter() time.Duration { return r.ttl / 2 }
func (r *Registry) expireAfter() time.Duration { return r.ttl * 3 / 4 }

// Acquire returns a handle on a lease of the table at tableDir, reached
// through fio, starting a generation if none is joinable. Hold it from
// before the first file the lease must protect is written until the
// commit naming the files returned, or until they were deleted, then
// Release it. Only the start of a generation does I/O.
func (r *Registry) Acquire(ctx context.Context, fio fileio.FileIO, tableDir string) (*Handle, error) {
	if r.disabled {
		return nil, nil
	}
	if fio == nil {
		return nil, errors.New("lease: FileIO is nil")
	}
	key := tableKey{io: fio, dir: path.Clean(tableDir)}
	if !reflect.ValueOf(fio).Comparable() {
		// No key: a generation of its own, as another process would have.
		g, err := r.start(ctx, key, nil)
		if err != nil {
			return nil, err
		}
		return &Handle{g: g}, nil
	}
	for {
		h, wait, err := r.acquireShared(ctx, key)
		if h != nil || err != nil {
			return h, err
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, fmt.Errorf("lease: waiting for a lease of %s: %w", tableDir, ctx.Err())
		}
	}
}

// acquireShared joins or starts the current generation of key, or returns
// a channel to wait on while another caller starts one.
func (r *Registry) acquireShared(ctx context.Context, key tableKey) (*Handle, <-chan struct{}, error) {
	r.mu.Lock()
	t := r.tables[key]
	if t == nil {
		t = &tableLeases{}
		r.tables[key] = t
	}
	if g := t.current; g != nil && g.joinable(r.now()) {
		g.holders++
		r.mu.Unlock()
		h := &Handle{g: g}
		if err := h.Check(ctx); err != nil {
			h.Release(ctx)
			return nil, nil, err
		}
		return h, nil, nil
	}
	if t.starting != nil {
		wait := t.starting
		r.mu.Unlock()
		return nil, wait, nil
	}
	t.starting = make(chan struct{})
	r.mu.Unlock()

	g, err := r.start(ctx, key, t)

	r.mu.Lock()
	defer r.mu.Unlock()
	close(t.starting)
	t.starting = nil
	if err != nil {
		r.forgetIfIdle(key, t)
		return nil, nil, err
	}
	t.current = g
	t.held++
	return &Handle{g: g}, nil, nil
}

// start creates the file of a new generation with one holder.
func (r *Registry) start(ctx context.Context, key tableKey, t *tableLeases) (*generation, error) {
	now := r.now()
	g := &generation{r: r, key: key, table: t, path: path.Join(Dir(key.dir), r.newUUID()), started: now, renewed: now, holders: 1}
	if err := fileio.OverwriteHint(ctx, key.io, g.path, encode(r.owner, r.ttl, time.Time{})); err != nil {
		// The write may have landed although it failed.
		g.end(ctx)
		return nil, fmt.Errorf("lease: create %s: %w", g.path, err)
	}
	return g, nil
}

// forgetIfIdle drops the state of a table without generations, so that a
// long-lived process does not keep one per table and FileIO it ever
// wrote. r.mu is held.
func (r *Registry) forgetIfIdle(key tableKey, t *tableLeases) {
	if t.held == 0 && t.current == nil && t.starting == nil && r.tables[key] == t {
		delete(r.tables, key)
	}
}

// detach removes a holder of g and reports whether it was the last.
func (r *Registry) detach(g *generation) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	g.holders--
	if g.holders > 0 {
		return false
	}
	if t := g.table; t != nil {
		if t.current == g {
			t.current = nil
		}
		t.held--
		r.forgetIfIdle(g.key, t)
	}
	return true
}

// generation is one lease file and its holders.
type generation struct {
	r     *Registry
	key   tableKey
	table *tableLeases // nil for a FileIO that cannot be a key
	path  string
	// started is when the generation started, on the holders' clock.
	started time.Time
	// holders is guarded by Registry.mu.
	holders int

	mu sync.Mutex
	// renewed is when the last successful write of the file began.
	renewed time.Time
	// start is the protection start, once a renewal learned it.
	start    time.Time
	renewing bool
	// renewErr is why the last renewal failed, for the error if the lease
	// is lost.
	renewErr error
	// lost is set once the lease is lost; every check returns it.
	lost error
}

// joinable reports whether new holders may join g at now.
func (g *generation) joinable(now time.Time) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lost == nil && now.Sub(g.started) < g.r.rotateAfter() && now.Sub(g.renewed) < g.r.expireAfter()
}

// check renews g if it is due, and returns ErrExpired once it is lost.
func (g *generation) check(ctx context.Context) error {
	now := g.r.now()
	g.mu.Lock()
	if g.lost != nil {
		defer g.mu.Unlock()
		return g.lost
	}
	since := now.Sub(g.renewed)
	if since >= g.r.expireAfter() {
		defer g.mu.Unlock()
		g.lost = fmt.Errorf("%w: lease %s was last renewed %s ago, and a lease not renewed for %s may be taken for stale (TTL %s)%s",
			ErrExpired, g.path, since, g.r.expireAfter(), g.r.ttl, causeSuffix(g.renewErr))
		return g.lost
	}
	if since < g.r.renewAfter() || g.renewing {
		g.mu.Unlock()
		return nil
	}
	g.renewing = true
	start := g.start
	g.mu.Unlock()

	start, err := g.renew(ctx, start)

	g.mu.Lock()
	defer g.mu.Unlock()
	g.renewing = false
	g.start = start
	switch {
	case err == nil:
		g.renewed, g.renewErr = now, nil
	case errors.Is(err, fileio.ErrNotExist):
		g.lost = fmt.Errorf("%w: lease %s is gone: orphan removal took it for stale", ErrExpired, g.path)
	default:
		// The lease stays good until it is due to expire; the next check
		// tries again.
		g.renewErr = err
	}
	return g.lost
}

// renew rewrites the lease file, first learning the protection start from
// it if still unknown, and returns the start.
func (g *generation) renew(ctx context.Context, start time.Time) (time.Time, error) {
	fi, err := g.key.io.Stat(ctx, g.path)
	if err != nil {
		return start, err
	}
	if start.IsZero() {
		start = fi.ModTime
	}
	return start, fileio.OverwriteHint(ctx, g.key.io, g.path, encode(g.r.owner, g.r.ttl, start))
}

// end deletes the file of a generation without holders. A file that
// cannot be deleted goes stale and orphan removal deletes it.
func (g *generation) end(ctx context.Context) {
	_ = g.key.io.Delete(context.WithoutCancel(ctx), g.path)
}

func causeSuffix(err error) string {
	if err == nil {
		return ""
	}
	return fmt.Sprintf("; the last renewal failed: %v", err)
}

// Handle is one holder's hold on a lease. A nil Handle, which a disabled
// Registry returns, holds nothing, and its methods do nothing.
type Handle struct {
	g        *generation
	released atomic.Bool
}

// Check renews the lease if it is due and reports whether the holder may
// still publish what it wrote under it: an error wrapping ErrExpired says
// it must not. Call it at every operation of the holder, and right before
// publishing. It costs no I/O but for a renewal. A released handle
// vouches for nothing and always passes.
func (h *Handle) Check(ctx context.Context) error {
	if h == nil || h.released.Load() {
		return nil
	}
	return h.g.check(ctx)
}

// Release gives the lease up; the last holder of a generation deletes its
// file. Releasing again does nothing.
func (h *Handle) Release(ctx context.Context) {
	if h == nil || !h.released.CompareAndSwap(false, true) {
		return
	}
	if h.g.r.detach(h.g) {
		h.g.end(ctx)
	}
}
