package compact

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"time"

	"github.com/lakesql/lakesql/storage/commit"
	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/lease"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/rowdelete"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// ctxCheckEvery is how many records a rewrite copies between checks of its
// context, so that a cancelled compaction stops promptly.
const ctxCheckEvery = 1024

// rewriter runs the jobs of one attempt.
type rewriter struct {
	io     fileio.FileIO
	cfg    *tableConfig
	reader *fileReader
	// engine and compareKeys merge primary-key records.
	engine      *lsm.Engine
	compareKeys lsm.RowComparator
	progress    *progress
	now         func() time.Time
	newUUID     func() string
	// lease is the compaction's write lease, nil inline (see alive).
	lease *lease.Handle
	// table is the table compacted, which reads and writes its deletion
	// vectors.
	table *table.Table
}

// output is what one job produced.
type output struct {
	message commit.Message
	// written are the new files, which the compaction must delete if its
	// commit does not land.
	written    []string
	wroteBytes int64
	rewrote    int
	upgraded   int
	read       int64
}

// run executes a job. On error it deletes what it wrote.
func (r *rewriter) run(ctx context.Context, j *job) (*output, error) {
	b := j.bucket
	out := &output{message: commit.Message{Partition: b.plan.Partition, Bucket: b.plan.Bucket, TotalBuckets: b.totalBuckets, Lease: r.lease}}
	var err error
	if r.cfg.primaryKey {
		err = r.runMergeTree(ctx, j, out)
	} else {
		err = r.runAppend(ctx, j, out)
	}
	if err != nil {
		return nil, errors.Join(fmt.Errorf("compact bucket %s: %w", b.plan.Dir, err),
			deleteFiles(ctx, r.io, out.written))
	}
	return out, nil
}

func (r *rewriter) runMergeTree(ctx context.Context, j *job, out *output) error {
	kept := r.keptLevels(j)
	err := r.runSteps(ctx, j, out, kept)
	if kept != nil {
		err = errors.Join(err, kept.close())
	}
	if err != nil || !r.cfg.deletionVectors {
		return err
	}
	var added map[string][]int64
	if kept != nil {
		added = kept.deleted
	}
	return r.rewriteVectors(ctx, j, out, added)
}

func (r *rewriter) runSteps(ctx context.Context, j *job, out *output, kept *keptLevels) error {
	for _, s := range j.steps {
		if s.upgrade != nil {
			up := *s.upgrade
			up.Level = int32(j.outputLevel)
			out.message.CompactBefore = append(out.message.CompactBefore, *s.upgrade)
			out.message.CompactAfter = append(out.message.CompactAfter, up)
			out.upgraded++
			continue
		}
		files, err := r.rewriteSections(ctx, j, s.sections, out, kept)
		if err != nil {
			return err
		}
		out.message.CompactAfter = append(out.message.CompactAfter, files...)
	}
	return nil
}

// rewriteSections merges the sections one after another (they do not
// share keys) through the merge engine and writes one rolling output, as
// MergeTreeCompactRewriter.rewriteCompaction does.
func (r *rewriter) rewriteSections(ctx context.Context, j *job, sections [][]lsm.SortedRun[*spec.DataFileMeta], out *output, kept *keptLevels) ([]spec.DataFileMeta, error) {
	w, err := r.newWriter(j, j.outputLevel, 0)
	if err != nil {
		return nil, err
	}
	for _, section := range sections {
		if err := r.copySection(ctx, j, section, w, out, kept); err != nil {
			return nil, errors.Join(err, w.Abort(context.WithoutCancel(ctx)))
		}
	}
	return r.finish(ctx, j, w, out)
}

// newWriter returns a writer of the job's files. Its Abort deletes the
// files whose put failed but may have landed, which out.written (the
// files it finished) does not list.
func (r *rewriter) newWriter(j *job, level int, firstSeq int64) (*write.CompactionWriter, error) {
	return write.NewCompactionWriter(write.CompactionWriterOptions{FileIO: r.io, Schema: r.cfg.schema,
		BucketDir: j.bucket.plan.Dir, Level: level, FirstSequence: firstSeq, Now: r.now, NewUUID: r.newUUID})
}

// finish closes the writer and records its files as written.
func (r *rewriter) finish(ctx context.Context, j *job, w *write.CompactionWriter, out *output) ([]spec.DataFileMeta, error) {
	files, err := w.Finish(ctx)
	if err != nil {
		return nil, errors.Join(err, w.Abort(context.WithoutCancel(ctx)))
	}
	for _, f := range files {
		out.written = append(out.written, path.Join(j.bucket.plan.Dir, f.FileName))
		for _, extra := range f.ExtraFiles {
			out.written = append(out.written, path.Join(j.bucket.plan.Dir, extra))
		}
		out.wroteBytes += f.FileSize
	}
	return files, nil
}

// copySection merges the runs of one section into w: each run is its
// files concatenated in key order.
func (r *rewriter) copySection(ctx context.Context, j *job, section []lsm.SortedRun[*spec.DataFileMeta], w *write.CompactionWriter, out *output, kept *keptLevels) (err error) {
	var opened []*keyValues
	defer func() {
		for _, kv := range opened {
			err = errors.Join(err, kv.Close())
		}
	}()
	runs := make([]lsm.RecordIterator, 0, len(section))
	for _, run := range section {
		files := make([]lsm.RecordIterator, 0, len(run))
		for _, f := range run {
			meta := f.Payload
			deleted, err := r.deletionVector(ctx, &j.bucket.plan, meta.FileName)
			if err != nil {
				return err
			}
			kv, err := r.reader.openKeyValues(ctx, j.bucket.plan.DataFilePath(meta), meta, deleted, func() { r.progress.fileDone(meta.FileSize) })
			if err != nil {
				return err
			}
			opened = append(opened, kv)
			files = append(files, kv)
			out.message.CompactBefore = append(out.message.CompactBefore, *meta)
			out.rewrote++
			out.read += meta.FileSize
		}
		runs = append(runs, lsm.Concat(files...))
	}
	// A retraction of a key a kept level holds must reach the lookup,
	// which marks the kept record deleted, even where it is then dropped.
	vectors := kept != nil && r.cfg.deletionVectors
	var older func([]any) (lsm.KeyValue, bool, error)
	if kept != nil && r.cfg.mergesKept {
		older = func(key []any) (lsm.KeyValue, bool, error) { return kept.older(ctx, key) }
	}
	merged, err := r.engine.NewLookupMergeReader(runs, r.compareKeys, !j.dropDelete || vectors, older)
	if err != nil {
		return err
	}
	for n := 0; ; n++ {
		if n%ctxCheckEvery == 0 {
			if err := r.alive(ctx); err != nil {
				return err
			}
		}
		kv, ok, err := merged.Next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		write, err := r.lookUp(ctx, j, kept, kv)
		if err != nil {
			return err
		}
		if !write {
			continue
		}
		if err := w.WriteKeyValue(ctx, kv); err != nil {
			return err
		}
	}
}

// lookUp resolves a merged record against the kept levels (lookup.go)
// and reports whether to write it: a first-row table keeps the kept
// record; a table with deletion vectors marks it deleted (partial-update
// and aggregation tables when merging with it), writes the newer record
// and drops a retraction where the job drops them.
func (r *rewriter) lookUp(ctx context.Context, j *job, kept *keptLevels, kv lsm.KeyValue) (bool, error) {
	if kept == nil {
		return true, nil
	}
	if r.cfg.mergesKept {
		// The merge looked the key up (keptLevels.older).
		return !(kv.Kind.IsRetract() && j.dropDelete), nil
	}
	rec, held, err := kept.find(ctx, kv.Key)
	if err != nil {
		return false, err
	}
	if r.cfg.firstRow {
		// The first row wins, with deletion vectors too (Java's
		// FirstRowMergeFunctionWrapper): nothing to mark.
		return !held, nil
	}
	if held {
		kept.replace(rec)
	}
	return !(kv.Kind.IsRetract() && j.dropDelete), nil
}

// runAppend copies each group of files into new level-0 files, numbering
// the rows from the group's first sequence number as Java's compactRewrite
// does.
func (r *rewriter) runAppend(ctx context.Context, j *job, out *output) error {
	for _, group := range j.groups {
		w, err := r.newWriter(j, 0, group[0].MinSequenceNumber)
		if err != nil {
			return err
		}
		for _, meta := range group {
			if err := r.copyRows(ctx, j, meta, w); err != nil {
				return errors.Join(err, w.Abort(context.WithoutCancel(ctx)))
			}
			out.message.CompactBefore = append(out.message.CompactBefore, *meta)
			out.rewrote++
			out.read += meta.FileSize
		}
		files, err := r.finish(ctx, j, w, out)
		if err != nil {
			return err
		}
		out.message.CompactAfter = append(out.message.CompactAfter, files...)
	}
	return r.rewriteVectors(ctx, j, out, nil)
}

// rewriteVectors replaces the bucket's deletion-vector index files with
// one holding the vectors of the files the job left in place (upgraded
// files keep theirs), with the positions added deleted, as Java's
// DeletionVectorsMaintainer (and AppendDeleteFileMaintainer, for append
// tables) writes them after a compaction.
func (r *rewriter) rewriteVectors(ctx context.Context, j *job, out *output, added map[string][]int64) error {
	b := j.bucket
	if len(b.vectors) == 0 && len(added) == 0 {
		return nil
	}
	rewritten := map[string]bool{}
	for _, f := range out.message.CompactBefore {
		rewritten[f.FileName] = true
	}
	for _, f := range out.message.CompactAfter {
		delete(rewritten, f.FileName)
	}
	kept, res, err := rowdelete.RewriteVectors(ctx, rowdelete.Options{
		FileIO: r.io, Table: r.table, Schema: r.cfg.schema, NewUUID: r.newUUID,
	}, &b.plan, b.vectors, func(name string) bool { return rewritten[name] }, added)
	out.written = append(out.written, res.Written...)
	if err != nil {
		return err
	}
	out.message.CompactDeletedIndexFiles = b.vectors
	out.message.CompactNewIndexFiles = kept
	return nil
}

func (r *rewriter) copyRows(ctx context.Context, j *job, meta *spec.DataFileMeta, w *write.CompactionWriter) (err error) {
	deleted, err := r.deletionVector(ctx, &j.bucket.plan, meta.FileName)
	if err != nil {
		return err
	}
	rs, err := r.reader.openRows(ctx, j.bucket.plan.DataFilePath(meta), meta)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, rs.Close()) }()
	for n := int64(0); ; n++ {
		if n%ctxCheckEvery == 0 {
			if err := r.alive(ctx); err != nil {
				return err
			}
		}
		row, err := rs.Next()
		if err == io.EOF {
			r.progress.fileDone(meta.FileSize)
			return nil
		}
		if err != nil {
			return err
		}
		if deleted != nil && deleted.IsDeleted(n) {
			continue
		}
		if err := w.WriteRow(ctx, row); err != nil {
			return err
		}
	}
}

// deletionVector reads the deletion vector of a data file of bucket b, or
// nil when it has none.
func (r *rewriter) deletionVector(ctx context.Context, b *table.BucketPlan, dataFile string) (*spec.DeletionVector, error) {
	df, ok := b.DeletionFiles[dataFile]
	if !ok {
		return nil, nil
	}
	return r.table.DeletionVector(ctx, df, dataFile)
}

// deleteFiles deletes files a compaction wrote and will not commit, even
// when ctx is already cancelled; files already gone are not an error.
func deleteFiles(ctx context.Context, fsys fileio.FileIO, paths []string) error {
	ctx = context.WithoutCancel(ctx)
	var errs []error
	for _, p := range paths {
		if err := fsys.Delete(ctx, p); err != nil && !errors.Is(err, fileio.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
