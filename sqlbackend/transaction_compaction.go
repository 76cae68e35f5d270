package sqlbackend

import (
	"errors"
	"fmt"
	"path"
	"slices"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/lakesql/lakesql/sqlbackend/mysqlerr"
	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/write"
)

// A transaction's writer compacts inline (writerCompactor), at the end of
// each statement and whenever a flush reaches the stop trigger, and may
// rewrite files of the transaction's earlier statements, including the
// outputs of their compactions. The transaction commits once, so such an
// intermediate output would be added and deleted by the same COMPACT
// snapshot: never live, never deleted. The transaction therefore keeps one
// net compaction per bucket, folding each statement's into it as the
// writer folds the compactions between two PrepareCommits (Java's
// MergeTreeWriter.updateCompactResult), and deletes intermediate outputs
// as soon as they are rewritten.

// stageCompaction folds one statement's compaction of the bucket of m into
// the transaction's.
func (w *tableWrite) stageCompaction(ctx *sql.Context, m commit.Message, inc write.CompactedFiles) {
	i := slices.IndexFunc(w.compaction, func(c commit.Message) bool {
		return c.Bucket == m.Bucket && string(c.Partition) == string(m.Partition)
	})
	if i < 0 {
		w.compaction = append(w.compaction, commit.Message{Partition: m.Partition, Bucket: m.Bucket, TotalBuckets: m.TotalBuckets})
		i = len(w.compaction) - 1
	}
	net := &w.compaction[i]
	var obsolete []spec.DataFileMeta
	var obsoleteIndex []spec.IndexFileMeta
	net.CompactBefore, net.CompactAfter, obsolete = foldCompaction(net.CompactBefore, net.CompactAfter, inc.Before, inc.After)
	net.CompactDeletedIndexFiles, net.CompactNewIndexFiles, obsoleteIndex = write.FoldIndex(net.CompactDeletedIndexFiles, net.CompactNewIndexFiles, inc.IndexBefore, inc.IndexAfter)
	err := errors.Join(w.deleteFiles(ctx, m.Partition, m.Bucket, obsolete), w.deleteIndexFiles(ctx, m.Partition, m.Bucket, obsoleteIndex))
	if err != nil {
		ctx.GetLogger().Warnf("%s.%s: deleting compaction outputs rewritten within the transaction: %v", w.db, w.name, err)
	}
}

// foldCompaction applies a compaction (before replaced by after) to the net
// compaction netBefore → netAfter, and returns the new net compaction and
// the files no commit can name any more: earlier outputs it rewrote. A
// file replaced at the level an earlier compaction put it drops out of the
// net output; it stays on disk if it is also a net input (an upgrade moved
// it) or an output again.
func foldCompaction(netBefore, netAfter, before, after []spec.DataFileMeta) (newBefore, newAfter, obsolete []spec.DataFileMeta) {
	newBefore, newAfter = slices.Clone(netBefore), slices.Clone(netAfter)
	for _, f := range before {
		i := slices.IndexFunc(newAfter, func(a spec.DataFileMeta) bool { return a.FileName == f.FileName && a.Level == f.Level })
		if i < 0 {
			newBefore = append(newBefore, f)
			continue
		}
		newAfter = slices.Delete(newAfter, i, i+1)
		if !hasFile(newBefore, f.FileName) && !hasFile(after, f.FileName) {
			obsolete = append(obsolete, f)
		}
	}
	return newBefore, append(newAfter, after...), obsolete
}

func hasFile(files []spec.DataFileMeta, name string) bool {
	return slices.ContainsFunc(files, func(f spec.DataFileMeta) bool { return f.FileName == name })
}

// dropCompaction removes the transaction's compaction when it ends in an
// INSERT OVERWRITE or TRUNCATE, and deletes its outputs: the overwrite
// replaces the files the compaction rewrote, so its COMPACT part could
// only conflict.
func (w *tableWrite) dropCompaction(ctx *sql.Context) {
	w.deleteCompactionOutputs(ctx, "replaced by the overwrite")
	w.compaction = nil
}

// compactionLost reports a commit whose data part landed but whose
// compaction did not, and deletes the compaction's outputs unless the
// compact part's outcome is unknown (its snapshot may name them).
func (w *tableWrite) compactionLost(ctx *sql.Context, res commit.Result, cpe *commit.CompactPartError) {
	ctx.Warn(mysqlerr.ErrorDuringCommit, "%s.%s: rows committed (%s), but the inline compaction was not: %v", w.db, w.name, res, cpe)
	ctx.GetLogger().Warnf("commit to %s.%s: rows committed (%s), inline compaction dropped: %v", w.db, w.name, res, cpe)
	if !errors.Is(cpe, lakeerr.ErrUnknownOutcome) {
		w.deleteCompactionOutputs(ctx, "not committed")
	}
}

// deleteCompactionOutputs deletes the files the transaction's compaction
// wrote: its net outputs, except files an upgrade only moved to another
// level, which are the same physical file as an input. Failures are
// logged: the files are orphans either way.
func (w *tableWrite) deleteCompactionOutputs(ctx *sql.Context, why string) {
	var errs []error
	for _, m := range w.compaction {
		var outputs []spec.DataFileMeta
		for _, f := range m.CompactAfter {
			if !hasFile(m.CompactBefore, f.FileName) {
				outputs = append(outputs, f)
			}
		}
		errs = append(errs, w.deleteFiles(ctx, m.Partition, m.Bucket, outputs),
			w.deleteIndexFiles(ctx, m.Partition, m.Bucket, m.CompactNewIndexFiles))
	}
	if err := errors.Join(errs...); err != nil {
		ctx.GetLogger().Warnf("%s.%s: deleting the outputs of the inline compaction (%s): %v", w.db, w.name, why, err)
	}
}

// deleteIndexFiles deletes index files of one bucket the writer's
// compactions wrote.
func (w *tableWrite) deleteIndexFiles(ctx *sql.Context, partition []byte, bucket int32, files []spec.IndexFileMeta) error {
	if len(files) == 0 {
		return nil
	}
	rel, err := w.schema.PartitionDir(partition)
	if err != nil {
		return err
	}
	bucketDir := path.Join(w.dir, rel, fmt.Sprintf("bucket-%d", bucket))
	paths := make([]string, len(files))
	for i := range files {
		paths[i] = w.table.BucketIndexFilePath(w.schema, bucketDir, &files[i])
	}
	return fileio.DeleteFiles(ctx, w.io, paths)
}

// deleteFiles deletes data files of one bucket, which the writer wrote in
// <table>/<partition path>/bucket-<n> as its schema names the partition.
func (w *tableWrite) deleteFiles(ctx *sql.Context, partition []byte, bucket int32, files []spec.DataFileMeta) error {
	if len(files) == 0 {
		return nil
	}
	rel, err := w.schema.PartitionDir(partition)
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range files {
		p := path.Join(w.dir, rel, fmt.Sprintf("bucket-%d", bucket), f.FileName)
		if err := w.io.Delete(ctx, p); err != nil && !errors.Is(err, fileio.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
