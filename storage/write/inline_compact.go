package write

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/lakesql/lakesql/storage/fileio"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
)

// BucketCompactor compacts one bucket of a primary-key table for a
// TableWriter, after its flushes (Options.Compactor). Package compact
// implements it (compact.InlineCompactor); the interface is declared here
// because package compact depends on this one. PrepareCommit compacts
// several buckets at once, so it must be safe for concurrent use.
type BucketCompactor interface {
	// CompactBucket asks the table's compaction strategy for a unit over
	// the bucket's files and rewrites it into the bucket directory. It
	// returns the files replaced and produced, both empty when nothing
	// needs compacting. The produced files belong to the caller.
	CompactBucket(ctx context.Context, b BucketCompaction) (CompactedFiles, error)
}

// BucketCompaction is one bucket a TableWriter asks to compact.
type BucketCompaction struct {
	FileIO fileio.FileIO
	// Table is the table written; it resolves the schemas of older files.
	Table *table.Table
	// Schema is the schema the writer writes with, the table's latest.
	Schema       *spec.TableSchema
	Partition    []byte
	Bucket       int32
	TotalBuckets int32
	// Dir is the bucket directory.
	Dir string
	// Files are the bucket's files as the writer sees them, at their
	// levels: those of the snapshot it restored from, the ones it flushed
	// since, and the results of its earlier compactions.
	Files []spec.DataFileMeta
	// Vectors are the bucket's deletion-vector index files as the writer
	// sees them, likewise (tables with deletion vectors).
	Vectors []spec.IndexFileMeta
	// Now and NewUUID are the writer's Options.Now and Options.NewUUID.
	Now     func() time.Time
	NewUUID func() string
}

// CompactedFiles is what a compaction, or a bucket's compactions since
// the last PrepareCommit, changed in a bucket: an upgraded file is in
// both, at its old and new level. IndexBefore and IndexAfter are the
// deletion-vector index files replaced and written.
type CompactedFiles struct {
	Before, After           []spec.DataFileMeta
	IndexBefore, IndexAfter []spec.IndexFileMeta
}

// inlineCompaction is the compaction of one primary-key bucket writer, run
// synchronously where Java's MergeTreeWriter triggers its compact manager
// and waits for it. It keeps the bucket's file view (Java's Levels) and the
// compaction increment since the last PrepareCommit.
type inlineCompaction struct {
	env       *writerEnv
	compactor BucketCompactor
	// request is the template of every request; Files is filled per call.
	request BucketCompaction
	// stopTrigger is num-sorted-run.stop-trigger: a flush that leaves this
	// many sorted runs compacts before the writer accepts more rows.
	stopTrigger int
	live        []spec.DataFileMeta
	// vectors are the bucket's live deletion-vector index files.
	vectors []spec.IndexFileMeta
	// unpicked is set when files were flushed since the strategy last
	// looked at the bucket.
	unpicked bool
	// increment is the compaction increment since the last drain: Java's
	// compactBefore (kept in insertion order) and compactAfter, and the
	// index files replaced and written.
	increment CompactedFiles
}

// flushed adds a flush's level-0 files to the view and compacts when the
// bucket reached the stop trigger: Java stalls the writer there until
// compaction catches up, which a synchronous compaction does at once.
func (c *inlineCompaction) flushed(ctx context.Context, files []spec.DataFileMeta) error {
	if len(files) == 0 {
		return nil
	}
	c.live = append(c.live, files...)
	c.unpicked = true
	if sortedRuns(c.live) < c.stopTrigger {
		return nil
	}
	return c.compact(ctx)
}

// prepared runs the compaction Java triggers after the flush of
// prepareCommit, unless nothing was flushed since the last one looked.
func (c *inlineCompaction) prepared(ctx context.Context) error {
	if !c.unpicked {
		return nil
	}
	return c.compact(ctx)
}

func (c *inlineCompaction) compact(ctx context.Context) error {
	req := c.request
	req.Files = slices.Clone(c.live)
	req.Vectors = slices.Clone(c.vectors)
	res, err := c.compactor.CompactBucket(ctx, req)
	if err != nil {
		return fmt.Errorf("compact bucket %s: %w", c.request.Dir, err)
	}
	c.unpicked = false
	c.replaceLive(res)
	obsoleteIndex := c.recordIndex(res)
	return errors.Join(c.env.deleteFiles(ctx, c.request.Dir, c.record(res)),
		c.env.deleteIndexFiles(ctx, c.request.Table, c.request.Schema, c.request.Dir, obsoleteIndex))
}

// recordIndex applies a compaction's index change to the bucket's vectors
// and the increment, and returns the index files no commit can name any
// more: those an earlier compaction of this increment wrote.
func (c *inlineCompaction) recordIndex(res CompactedFiles) []spec.IndexFileMeta {
	for _, f := range res.IndexBefore {
		c.vectors = slices.DeleteFunc(c.vectors, sameIndexFile(f))
	}
	c.vectors = append(c.vectors, res.IndexAfter...)
	inc := &c.increment
	var obsolete []spec.IndexFileMeta
	inc.IndexBefore, inc.IndexAfter, obsolete = FoldIndex(inc.IndexBefore, inc.IndexAfter, res.IndexBefore, res.IndexAfter)
	return obsolete
}

// FoldIndex applies an index change (before replaced by after) to a net
// one: an index file the net change wrote and this one replaced drops out
// of it, and is returned as obsolete, since no commit can name it.
func FoldIndex(netBefore, netAfter, before, after []spec.IndexFileMeta) (newBefore, newAfter, obsolete []spec.IndexFileMeta) {
	newBefore, newAfter = slices.Clone(netBefore), slices.Clone(netAfter)
	for _, f := range before {
		if i := slices.IndexFunc(newAfter, sameIndexFile(f)); i >= 0 {
			newAfter = slices.Delete(newAfter, i, i+1)
			obsolete = append(obsolete, f)
			continue
		}
		newBefore = append(newBefore, f)
	}
	return newBefore, append(newAfter, after...), obsolete
}

func sameIndexFile(f spec.IndexFileMeta) func(spec.IndexFileMeta) bool {
	return func(g spec.IndexFileMeta) bool { return g.FileName == f.FileName }
}

func (c *inlineCompaction) replaceLive(res CompactedFiles) {
	replaced := map[string]bool{}
	for _, f := range res.Before {
		replaced[f.FileName] = true
	}
	c.live = slices.DeleteFunc(c.live, func(f spec.DataFileMeta) bool { return replaced[f.FileName] })
	c.live = append(c.live, res.After...)
}

// record adds a compaction result to the increment, as Java's
// MergeTreeWriter.updateCompactResult does, and returns the files that
// can be deleted at once: outputs of an earlier compaction of this
// increment that this one rewrote, which no snapshot references. A file an
// upgrade moved stays, since it is the same physical file as its other
// level.
func (c *inlineCompaction) record(res CompactedFiles) []spec.DataFileMeta {
	produced := map[string]bool{}
	for _, f := range res.After {
		produced[f.FileName] = true
	}
	inc := &c.increment
	var obsolete []spec.DataFileMeta
	for _, f := range res.Before {
		i := slices.IndexFunc(inc.After, func(a spec.DataFileMeta) bool { return a.FileName == f.FileName && a.Level == f.Level })
		if i < 0 {
			inc.Before = append(inc.Before, f)
			continue
		}
		inc.After = slices.Delete(inc.After, i, i+1)
		if !containsFile(inc.Before, f.FileName) && !produced[f.FileName] {
			obsolete = append(obsolete, f)
		}
	}
	inc.After = append(inc.After, res.After...)
	return obsolete
}

// drain hands the increment over to a commit message.
func (c *inlineCompaction) drain() CompactedFiles {
	inc := c.increment
	c.increment = CompactedFiles{}
	return inc
}

// discard deletes the files compactions wrote since the last drain.
func (c *inlineCompaction) discard(ctx context.Context) error {
	inc := c.drain()
	return errors.Join(c.env.deleteFiles(ctx, c.request.Dir, compactionOutputs(inc.Before, inc.After)),
		c.env.deleteIndexFiles(ctx, c.request.Table, c.request.Schema, c.request.Dir, inc.IndexAfter))
}

// compactionOutputs are the files of a compaction increment that its
// compactions wrote, as opposed to files they only moved to another level.
func compactionOutputs(before, after []spec.DataFileMeta) []spec.DataFileMeta {
	var out []spec.DataFileMeta
	for _, f := range after {
		if !containsFile(before, f.FileName) {
			out = append(out, f)
		}
	}
	return out
}

func containsFile(files []spec.DataFileMeta, name string) bool {
	return slices.ContainsFunc(files, func(f spec.DataFileMeta) bool { return f.FileName == name })
}

// sortedRuns counts a bucket's sorted runs: every level-0 file, and every
// other level holding files.
func sortedRuns(files []spec.DataFileMeta) int {
	runs := 0
	levels := map[int32]bool{}
	for _, f := range files {
		if f.Level == 0 {
			runs++
		} else if !levels[f.Level] {
			levels[f.Level] = true
			runs++
		}
	}
	return runs
}
