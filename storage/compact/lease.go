package compact

import (
	"cmp"
	"context"

	"github.com/lakesql/lakesql/storage/lease"
)

// acquireLease takes the write lease a compaction holds from before it
// writes its first file until its commit returned (see package lease),
// which keeps orphan removal from deleting its output in between.
func acquireLease(ctx context.Context, opts *Options) (*lease.Handle, error) {
	return cmp.Or(opts.Leases, lease.Default()).Acquire(ctx, opts.FileIO, opts.TableDir)
}

// alive stops a rewrite whose context ended or whose lease was lost: its
// output could not be committed.
func (r *rewriter) alive(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return r.lease.Check(ctx)
}
