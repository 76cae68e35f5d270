package sqlbackend

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/sqlbackend/metrics"
	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/compact"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/scan"
)

// commitStaged commits the transaction's table: one commit, which is one
// snapshot, or two when the writer compacted inline (the data, then the
// COMPACT snapshot).
//
// The compact part never fails the transaction. storage/commit publishes
// it only after the data part landed, and reports its failure as a
// commit.CompactPartError: the rows are committed, and only the rewrite
// of files is lost, typically to a compaction service or another server
// that compacted the same bucket first. The commit then succeeds with a
// warning, and the compaction's output files, which no snapshot names,
// are deleted. A failed data part fails the transaction as before.
func (s *Session) commitStaged(ctx *sql.Context, tx *Transaction) error {
	w := tx.writes.take()
	if w == nil {
		return nil
	}
	// A panic leaves the commit's outcome unknown: the writer is released
	// without deleting files a snapshot may already name.
	settled := false
	defer func() {
		if !settled {
			w.release(ctx, errCommitPanicked)
		}
	}()
	err := s.commitTable(ctx, w)
	settled = true
	return err
}

// errCommitPanicked is the outcome of a commit that panicked.
var errCommitPanicked = fmt.Errorf("the commit panicked: %w", lakeerr.ErrUnknownOutcome)

// commitTable commits the staged writes of one table (see commitStaged)
// and releases its writer.
func (s *Session) commitTable(ctx *sql.Context, w *tableWrite) error {
	user, id, err := s.commitIdentity(ctx, w.dir)
	if err != nil {
		w.abort(ctx)
		return mysqlerr.From(err)
	}
	committer, err := commit.New(commit.Options{
		FileIO: s.backend.opts.FileIO, TableDir: w.dir, Core: w.schema.CoreOptions(),
		Now: s.backend.opts.Now, NewUUID: s.backend.opts.NewUUID,
	})
	if err != nil {
		w.abort(ctx)
		return mysqlerr.From(err)
	}
	if w.overwrite != nil {
		w.dropCompaction(ctx)
	}
	req := w.request(user, id, commitWatermark(ctx))
	start := time.Now()
	res, err := committer.Commit(ctx, req)
	s.backend.opts.Metrics.RecordCommit(metrics.CommitEvent{DB: w.db, Table: w.name, Request: req, Result: res, Err: err, Duration: time.Since(start)})
	// compactFailed keeps the compact part's error, so that its files are
	// left alone below when it may have landed.
	var compactFailed error
	var cpe *commit.CompactPartError
	if errors.As(err, &cpe) {
		compactFailed, err = cpe, nil
		w.compactionLost(ctx, res, cpe)
		s.compactHiddenRows(ctx, w)
	}
	if err != nil {
		w.release(ctx, err)
		s.noteFailedCommit(ctx, w.dir, err)
		return mysqlerr.From(fmt.Errorf("commit to %s.%s: %w", w.db, w.name, err))
	}
	for _, warning := range res.Warnings {
		ctx.GetLogger().Warnf("commit to %s.%s: %v", w.db, w.name, warning)
	}
	if res.AlreadyCommitted() && len(res.Snapshots) == 0 {
		w.release(ctx, compactFailed) // nothing of this run was committed
		s.noteSkipped()
		ctx.Warn(mysqlerr.ErrorDuringCommit, "commit user %q identifier %d was already committed in snapshot %d of %s.%s with the same rows; nothing was written",
			user, id, res.AlreadyCommittedIn, w.db, w.name)
		return nil
	}
	s.warnReruns(ctx, w.db, w.name)
	s.backend.askCompaction(w)
	return mysqlerr.From(w.writer.Close())
}

// compactHiddenRows compacts a table whose reads skip level 0 (first-row,
// deletion vectors) after its commit landed the rows but lost their
// compaction to a concurrent one: until a compaction moves them up, no
// read sees them. The compaction plans afresh from the latest snapshot
// (and retries a lost race, compact.Options.MaxAttempts); should it fail
// too, the client is told that the rows wait for one.
func (s *Session) compactHiddenRows(ctx *sql.Context, w *tableWrite) {
	if hides, err := scan.HidesLevel0(w.schema); err != nil || !hides {
		return
	}
	_, err := compact.Table(ctx, compact.Options{
		FileIO: s.backend.opts.FileIO, TableDir: w.dir, Mode: compact.Minor,
		Now: s.backend.opts.Now, NewUUID: s.backend.opts.NewUUID,
	})
	if err != nil {
		ctx.Warn(mysqlerr.ErrorDuringCommit, "%s.%s: the rows committed stay unread until a compaction (CALL sys.compact): %v", w.db, w.name, err)
		ctx.GetLogger().Warnf("commit to %s.%s: compacting the rows reads skip: %v", w.db, w.name, err)
	}
}

// askCompaction asks the compaction service, when there is one, to
// compact a primary-key table a commit added files to. Tables with
// write-only = true are left to the compaction job their owners run.
func (b *Backend) askCompaction(w *tableWrite) {
	if b.compactions == nil || len(w.schema.PrimaryKeys) == 0 || len(w.messages) == 0 {
		return
	}
	if writeOnly, err := w.schema.CoreOptions().WriteOnly(); err != nil || writeOnly {
		return
	}
	b.compactions.request(compactionRequest{db: w.db, name: w.name, dir: w.dir})
}

// request is the commit of everything the transaction staged.
func (w *tableWrite) request(user string, id int64, watermark *int64) commit.Request {
	req := commit.Request{
		CommitUser: user, Identifier: id, Watermark: watermark,
		Messages:       slices.Concat(w.messages, w.deleted, w.compaction),
		Overwrite:      w.overwrite,
		ReadSnapshotID: w.base,
	}
	if w.checkKeys {
		req.KeyCheck = &commit.KeyCheck{BaseSnapshotID: w.base}
	}
	if o := w.overwrite; o != nil && len(o.Static) == 0 && o.Static != nil && len(w.messages) == 0 {
		req.Overwrite = &commit.Overwrite{BaseSnapshotID: o.BaseSnapshotID, Truncate: true}
	}
	return req
}

// release frees the writer after a failed commit. Files are deleted only
// when the commit surely did not land; after an unknown outcome they may be
// referenced by a snapshot, so they are left for orphan cleanup.
func (w *tableWrite) release(ctx *sql.Context, err error) {
	if errors.Is(err, lakeerr.ErrUnknownOutcome) {
		_ = w.writer.Close()
		return
	}
	w.abort(ctx)
}
