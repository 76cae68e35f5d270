package table

import (
	"context"
	"errors"
	"io"

	"github.com/lakesql/lakesql/storage/fileformat"
	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/vector"
)

// vectorBatchRows is how many rows the columnar path decodes at once:
// enough to amortise per-batch work, few enough to stay in cache.
const vectorBatchRows = 4096

// splitAggregator is one worker's state: its accumulators, and the
// compiled filters and buffers of the columnar path, which are not safe
// to share.
type splitAggregator struct {
	aggs    []aggregate
	accs    []accumulator
	filters map[*reader]*vector.Filter
	batch   vector.Batch
	live    []int32
	sel     []int32
}

func newSplitAggregator(aggs []aggregate) *splitAggregator {
	return &splitAggregator{aggs: aggs, accs: make([]accumulator, len(aggs)), filters: map[*reader]*vector.Filter{}}
}

// run aggregates one split: file by file through vectors when the split
// needs no merge, or a merge over its keys (task.keys) tells the rows of
// its files it deletes, and its rows need no conversion; otherwise
// through the row reader.
func (a *splitAggregator) run(ctx context.Context, t *task) error {
	r := t.r
	merged := r.engine != nil && !t.split.RawConvertible
	// A data-evolution split whose files share rows is read row by row,
	// its columns joined (openEvolution).
	joined := r.dataEvolution && !t.split.RawConvertible
	if t.outputFilter != nil || r.toOutput != nil || (merged && t.keys == nil) || joined {
		src, err := r.openSplit(ctx, t.split)
		if err != nil {
			return err
		}
		return a.rowsOf(ctx, t, src)
	}
	deleted := make([][]int64, len(t.split.Files))
	if merged {
		var err error
		if deleted, err = t.keys.deletedRows(ctx, t.split); err != nil {
			return err
		}
	}
	b := &r.plan.Buckets[t.split.Bucket]
	for i := range t.split.Files {
		if err := a.file(ctx, t, b, &t.split.Files[i], deleted[i]); err != nil {
			return err
		}
	}
	return nil
}

// file aggregates one file of a split read without merging, or of a
// merged split less its deleted rows (which hold its deletion vector's).
func (a *splitAggregator) file(ctx context.Context, t *task, b *BucketPlan, f *spec.DataFileMeta, deleted []int64) error {
	r := t.r
	d, err := r.openDataFile(ctx, b, f)
	if err != nil {
		return err
	}
	if len(deleted) > 0 {
		d.deleted = positionSet(deleted)
	}
	requests, columns, ok := r.vectorColumns(d, a.aggs)
	if !ok {
		it, err := r.rawRows(d)
		if err != nil {
			return errors.Join(err, d.Close())
		}
		return a.rowsOf(ctx, t, it)
	}
	groups, err := r.rowGroups(d, r.residual)
	if err != nil {
		return errors.Join(err, d.Close())
	}
	it, err := fileformat.VectorsOf(d.format).NewVectorIterator(requests, groups)
	if err != nil {
		return errors.Join(err, d.Close())
	}
	err = a.vectors(ctx, r, d, it, columns)
	return errors.Join(err, it.Close(), d.Close())
}

// vectorColumns returns the vector requests of a file for the read
// columns the aggregates and the residual filter need, and the read
// position of each; ok is false when one of them does not vectorize or
// would need a cast (a column whose type evolved), which the row path
// applies, and for files of formats other than Parquet and ORC.
func (r *reader) vectorColumns(d *dataFile, aggs []aggregate) (requests []parquetio.ColumnRequest, columns []int, ok bool) {
	vr := fileformat.VectorsOf(d.format)
	if vr == nil {
		return nil, nil, false
	}
	for _, c := range union(aggColumns(aggs), predicate.Columns(r.residual)) {
		rf := r.schema.Fields[c]
		ff, found := d.fileSchema.FieldByID(rf.ID)
		if !found {
			// The file predates the column: it reads as NULL, which a
			// missing vector stands for.
			continue
		}
		req := parquetio.ColumnRequest{Name: ff.Name, Type: ff.Type}
		if ff.Type.String() != rf.Type.String() || !vr.CanVectorize(req) {
			return nil, nil, false
		}
		requests = append(requests, req)
		columns = append(columns, c)
	}
	return requests, columns, true
}

// vectors aggregates the batches of a file: rows its deletion vector
// keeps, then rows the residual filter selects.
func (a *splitAggregator) vectors(ctx context.Context, r *reader, d *dataFile, it fileformat.VectorBatches, columns []int) error {
	filter := a.filter(r)
	a.batch.Columns = make([]*vector.Vector, len(r.schema.Fields))
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		vectors, n, err := it.Next(vectorBatchRows)
		if err != nil {
			return ignoreEOF(err)
		}
		a.batch.Len = n
		for i, c := range columns {
			a.batch.Columns[c] = vectors[i]
		}
		sel := a.selected(filter, d, it.Position())
		for i := range a.aggs {
			a.accs[i].addBatch(&a.aggs[i], &a.batch, sel)
		}
	}
}

// filter returns the worker's compiled residual filter of r, nil when
// every row passes.
func (a *splitAggregator) filter(r *reader) *vector.Filter {
	if scan.IsTrue(r.residual) {
		return nil
	}
	f, ok := a.filters[r]
	if !ok {
		f = vector.Compile(r.residual)
		a.filters[r] = f
	}
	return f
}

// selected lists the rows of the current batch, at file position first,
// that the file's deletion vector keeps and the filter (nil: none)
// selects. Filter.Select reads nil candidates as every row, so the rows a
// deletion vector keeps are never handed to it when there are none: a
// batch whose rows are all deleted selects nothing.
func (a *splitAggregator) selected(filter *vector.Filter, d *dataFile, first int64) []int32 {
	n := a.batch.Len
	if d.deleted == nil {
		if filter == nil {
			return a.allRows(n)
		}
		a.sel = filter.Select(&a.batch, nil, a.sel[:0])
		return a.sel
	}
	live := a.liveRows(d, first, n)
	if filter == nil || len(live) == 0 {
		return live
	}
	a.sel = filter.Select(&a.batch, live, a.sel[:0])
	return a.sel
}

// liveRows lists the rows of a batch at file position first that the
// file's deletion vector keeps.
func (a *splitAggregator) liveRows(d *dataFile, first int64, n int) []int32 {
	a.live = a.live[:0]
	for i := range n {
		if !d.deleted.IsDeleted(first + int64(i)) {
			a.live = append(a.live, int32(i))
		}
	}
	return a.live
}

// allRows selects every row of a batch of n.
func (a *splitAggregator) allRows(n int) []int32 {
	a.sel = a.sel[:0]
	for i := range n {
		a.sel = append(a.sel, int32(i))
	}
	return a.sel
}

func ignoreEOF(err error) error {
	if err == io.EOF {
		return nil
	}
	return err
}
