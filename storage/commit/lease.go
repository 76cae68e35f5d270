package commit

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/lakesql/lakesql/storage/lease"
)

// leaseSource is where a Committer takes the lease of each Commit call.
type leaseSource struct {
	registry *lease.Registry
	tableDir string
}

func newLeaseSource(opts Options) leaseSource {
	return leaseSource{registry: cmp.Or(opts.Leases, lease.Default()), tableDir: opts.TableDir}
}

// writeLeases are the leases a Commit call answers for (see package
// lease): its own, which protects the manifests, manifest lists and
// staged snapshot files it writes from orphan removal until its snapshot
// puts, and those of the writers whose files its messages name. Before
// each snapshot put it checks them all, and publishes nothing once one is
// lost: orphan removal may have deleted files the snapshot would name.
type writeLeases struct {
	own     *lease.Handle
	writers []*lease.Handle
}

// holdLeases takes the call's own lease, before it writes any file, and
// checks its writers' leases, so that a request whose files may be gone
// fails before anything is written.
func (c *Committer) holdLeases(ctx context.Context, req *Request) (*writeLeases, error) {
	own, err := c.leases.registry.Acquire(ctx, c.io, c.leases.tableDir)
	if err != nil {
		return nil, err
	}
	l := &writeLeases{own: own}
	for i := range req.Messages {
		if h := req.Messages[i].Lease; h != nil && !slices.Contains(l.writers, h) {
			l.writers = append(l.writers, h)
		}
	}
	if err := l.check(ctx); err != nil {
		l.release(ctx)
		return nil, err
	}
	return l, nil
}

// check renews the leases that are due and fails if one is lost.
func (l *writeLeases) check(ctx context.Context) error {
	if l == nil {
		return nil
	}
	errs := []error{l.own.Check(ctx)}
	for _, h := range l.writers {
		errs = append(errs, h.Check(ctx))
	}
	return errors.Join(errs...)
}

// release gives the call's own lease up; the writers' stay with them.
func (l *writeLeases) release(ctx context.Context) { l.own.Release(ctx) }

// refuseLostLease fails a planned job, without its snapshot put, when a
// lease of its Commit call is lost: it deletes the files the attempt
// wrote and reports whether it refused.
func (b *batch) refuseLostLease(pj *plannedJob) bool {
	j := pj.j
	err := j.r.leases.check(j.ctx)
	if err == nil {
		return false
	}
	if pj.staged != nil {
		pj.staged.Discard()
	}
	j.err = errors.Join(err, pj.prep.w.deleteFresh(j.ctx))
	return true
}
