package compact

import (
	"context"
	"errors"
	"fmt"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/table"
	"github.com/lakesql/lakesql/storage/write"
)

// InlineCompactor returns the compactor a TableWriter runs on its own
// buckets (write.Options.Compactor): a minor compaction of one bucket, the
// unit picked by the universal strategy with the table's options and
// rewritten as Table does, but not committed; the writer puts the change
// in its commit messages, as Java's MergeTreeWriter does. Tables Table
// refuses to compact (changelog-producer lookup or full-compaction,
// record-level expiry, ...), and buckets holding files lakesql cannot
// read, are written without compaction, as with write-only = true; but
// not tables whose reads skip level 0 (hiddenUntilCompacted).
// Deletion vectors the compaction marks go in its index change.
func InlineCompactor() write.BucketCompactor { return inlineCompactor{} }

type inlineCompactor struct{}

// CompactBucket implements write.BucketCompactor.
func (inlineCompactor) CompactBucket(ctx context.Context, b write.BucketCompaction) (write.CompactedFiles, error) {
	cfg, err := newTableConfig(b.Schema, b.Now())
	if errors.Is(err, lakeerr.ErrUnsupported) {
		return write.CompactedFiles{}, hiddenUntilCompacted(b.Schema, err)
	}
	if err != nil || !cfg.primaryKey {
		return write.CompactedFiles{}, err
	}
	p := &planner{cfg: cfg, mode: Minor, schemaOf: func(id int64) (*spec.TableSchema, error) {
		return b.Table.Schemas().Schema(ctx, id)
	}}
	bk := &bucket{
		plan:         table.BucketPlan{Partition: b.Partition, Bucket: b.Bucket, Dir: b.Dir, Files: b.Files},
		totalBuckets: b.TotalBuckets,
	}
	bk.attachVectors(b.Table, b.Schema, b.Vectors)
	j, err := p.planMergeTree(bk)
	if err != nil || j == nil {
		return write.CompactedFiles{}, err
	}
	opts := &Options{FileIO: b.FileIO, TableDir: b.Table.Dir(), Now: b.Now, NewUUID: b.NewUUID}
	withDefaults(opts)
	rw, err := newRewriter(opts, b.Table.Schemas(), cfg, []*job{j})
	if errors.Is(err, lakeerr.ErrUnsupported) {
		// Files lakesql cannot read in the bucket: written without
		// compaction, as above; Java compacts them.
		return write.CompactedFiles{}, hiddenUntilCompacted(b.Schema, err)
	}
	if err != nil {
		return write.CompactedFiles{}, err
	}
	rw.table = b.Table
	out, err := rw.run(ctx, j)
	if err != nil {
		return write.CompactedFiles{}, err
	}
	return write.CompactedFiles{Before: out.message.CompactBefore, After: out.message.CompactAfter,
		IndexBefore: out.message.CompactDeletedIndexFiles, IndexAfter: out.message.CompactNewIndexFiles}, nil
}

// hiddenUntilCompacted is why a write whose bucket lakesql cannot compact
// fails: batch reads of first-row and deletion-vector tables skip level-0
// files (as Java's do), so its rows would stay invisible until Java
// compacted the bucket. Other tables are written without compaction, and
// it is nil.
func hiddenUntilCompacted(schema *spec.TableSchema, refusal error) error {
	hides, err := scan.HidesLevel0(schema)
	if err != nil {
		return err
	}
	if hides {
		return fmt.Errorf("batch reads skip the table's new rows until a compaction: %w", refusal)
	}
	return nil
}
