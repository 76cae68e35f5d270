package write

import (
	"cmp"
	"context"

	"github.com/lakesql/lakesql/storage/lease"
)

// acquireLease takes the write lease of a TableWriter opened with opts on
// the table at tableDir (see package lease). The writer holds it from
// before its first file until Close or Abort, so that orphan removal keeps
// its files until its messages are committed, as long as the caller closes
// the writer only after the commit returned.
func acquireLease(ctx context.Context, opts Options, tableDir string) (*lease.Handle, error) {
	return cmp.Or(opts.Leases, lease.Default()).Acquire(ctx, opts.FileIO, tableDir)
}

// checkLease renews the writer's lease when due. A lost lease breaks the
// writer: orphan removal may have deleted the files it wrote, so none of
// them may be committed.
func (w *TableWriter) checkLease(ctx context.Context) error {
	if err := w.lease.Check(ctx); err != nil {
		w.err = err
		return err
	}
	return nil
}
