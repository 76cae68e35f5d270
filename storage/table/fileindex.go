package table

import (
	"context"
	"fmt"
	"path"

	"github.com/RoaringBitmap/roaring/v2"
	"golang.org/x/sync/errgroup"

	"github.com/lakesql/lakesql/storage/fileindex"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// fileIndexCacheBytes bounds the decoded .index files kept per table. They
// never change under their name; Java's default bloom filter is 585 KiB.
const fileIndexCacheBytes = 32 << 20

// fileIndexReads is how many .index files a plan reads at once: on an
// object store each is a request of its own.
const fileIndexReads = 16

// applyFileIndexes drops the planned files whose data-file index proves
// that no row matches the filter (scan.Plan.IndexTests says which files
// and which part of the filter), reading the .index files it needs.
func (t *Table) applyFileIndexes(ctx context.Context, sp *scan.Plan) error {
	tests, err := sp.IndexTests()
	if err != nil || len(tests) == 0 {
		return err
	}
	cannot := make([]bool, len(tests))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(fileIndexReads)
	for i, test := range tests {
		g.Go(func() error {
			split := &sp.Splits[test.Split]
			file := &split.Files[test.File]
			var err error
			if cannot[i], err = t.indexRefutes(gctx, split.Partition, split.Bucket, file, test); err != nil {
				return fmt.Errorf("file index of %s: %w", file.FileName, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	sp.DropIndexed(tests, cannot)
	return nil
}

// indexRefutes evaluates one test against the file's index, read with the
// columns of the schema the file was written with.
func (t *Table) indexRefutes(ctx context.Context, partition []byte, bucket int32, file *spec.DataFileMeta, test scan.IndexTest) (bool, error) {
	container, err := t.fileIndex(ctx, partition, bucket, file)
	if err != nil {
		return false, err
	}
	written, err := t.schemas.Schema(ctx, file.SchemaID)
	if err != nil {
		return false, err
	}
	return fileindex.NewEvaluator(container, written.Fields).Cannot(test.Filter)
}

// fileIndex decodes the file's index: embedded in its manifest entry, or
// its .index file, cached by path.
func (t *Table) fileIndex(ctx context.Context, partition []byte, bucket int32, file *spec.DataFileMeta) (*fileindex.Container, error) {
	if file.EmbeddedIndex != nil {
		return fileindex.Decode(file.EmbeddedIndex)
	}
	p, err := t.IndexFilePath(ctx, partition, bucket, file)
	if err != nil {
		return nil, err
	}
	if c, ok := t.indexes.Get(p); ok {
		return c, nil
	}
	data, err := t.io.ReadFile(ctx, p)
	if err != nil {
		return nil, err
	}
	c, err := fileindex.Decode(data)
	if err != nil {
		return nil, err
	}
	t.indexes.Put(p, c)
	return c, nil
}

// IndexFilePath is where a data file's .index file is: beside the data
// file, beside its external path if it has one, as
// DataFilePathFactory.toAlignedPath places it. "" when it has none.
func (t *Table) IndexFilePath(ctx context.Context, partition []byte, bucket int32, file *spec.DataFileMeta) (string, error) {
	name := scan.IndexFileName(file)
	if name == "" {
		return "", nil
	}
	if file.ExternalPath != nil {
		return path.Join(path.Dir(localPath(*file.ExternalPath)), name), nil
	}
	dir, err := t.bucketDir(ctx, file.SchemaID, partition, bucket)
	return path.Join(dir, name), err
}

// indexedRows narrows the rows of d, a file read without merging (each of
// its rows is a result row), to those its bitmap indexes leave for the
// residual filter, as Java's ApplyBitmapIndexRecordReader does: a lookup
// by an indexed column then reads the pages of its rows only. nil when
// the indexes do not narrow them.
func (r *reader) indexedRows(ctx context.Context, b *BucketPlan, f *spec.DataFileMeta, d *dataFile) (*roaring.Bitmap, error) {
	if isTrue(r.residual) || !scan.HasFileIndex(f) || d.parquet() == nil {
		return nil, nil
	}
	if on, err := r.schema.CoreOptions().FileIndexReadEnabled(); err != nil || !on {
		return nil, err
	}
	c, err := r.table.fileIndex(ctx, b.Partition, b.Bucket, f)
	if err != nil {
		return nil, fmt.Errorf("file index of %s: %w", f.FileName, err)
	}
	rows, ok, err := fileindex.NewEvaluator(c, d.fileSchema.Fields).Rows(r.residual)
	if !ok || err != nil {
		return nil, err
	}
	return rows, nil
}

// withinRows narrows ranges to the rows of d in rows, file positions.
func withinRows(d *dataFile, ranges []parquetio.RowRange, rows *roaring.Bitmap) []parquetio.RowRange {
	groups := d.format.RowGroups()
	var sel selection
	for _, rg := range ranges {
		first := groups[rg.Group].FirstRow
		it := rows.Iterator()
		it.AdvanceIfNeeded(uint32(first + rg.From))
		for it.HasNext() {
			position := int64(it.PeekNext())
			if position >= first+rg.To {
				break
			}
			sel.add(rg.Group, position-first)
			it.Next()
		}
	}
	return sel.ranges
}
