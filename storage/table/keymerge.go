package table

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/scan"
	"github.com/lakesql/lakesql/storage/spec"
)

// An outside engine reads the files of a merged split itself when lakesql
// tells it which stored rows the merge drops. With a merge engine that
// keeps one stored record of each key whole, the merged rows are stored
// rows, and which ones survive depends only on the keys, sequence fields
// and row kinds. So the split is merged as a read merges it, over those
// columns only, each record carrying its file and row position (Origin),
// and every record the merge consumes without returning it is a deleted
// row: a superseded version, or a key's last version when it retracts
// the key.

// originShift places a file's index above its row positions in a
// record's Origin.
const originShift = 40

// newKeyReader prepares merging the splits of plan over the keys and
// sequence fields only. It is nil for an append table, and when the merge
// engine does not keep a stored record of each key whole, so that such a
// merge cannot name the surviving rows.
func newKeyReader(t *Table, plan *Plan) (*reader, error) {
	r, err := newReader(t, plan, nil)
	if err != nil || r.engine == nil || !keepsStoredRecords(r.schema, r.engine) {
		return nil, err
	}
	if r.mergeColumns, err = mergeColumns(r.schema, r.engine, nil, r.keyIdx); err != nil {
		return nil, err
	}
	return r, nil
}

// runMerges hands out the files of the plan's splits at indexes splits,
// each with its deleted rows, merging up to GOMAXPROCS splits at once
// with r (newKeyReader). The first error stops the others.
func runMerges(ctx context.Context, r *reader, splits []int, parts []splitPart) error {
	if len(splits) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	workers := min(runtime.GOMAXPROCS(0), len(splits))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(splits) {
					return
				}
				t := task{r: r, split: &r.plan.Splits[splits[i]]}
				part, err := r.handOutRecovered(ctx, &t)
				if err != nil {
					errs[w] = t.vanishedFileError(ctx, err)
					cancel()
					return
				}
				parts[splits[i]] = part
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return ctx.Err()
}

func (r *reader) handOutRecovered(ctx context.Context, t *task) (part splitPart, err error) {
	defer recoverSplit(t, &err)
	deleted, err := r.deletedRows(ctx, t.split)
	if err != nil {
		return splitPart{}, err
	}
	b := &r.plan.Buckets[t.split.Bucket]
	for i := range t.split.Files {
		part.direct = append(part.direct, ExternalFile{Path: b.DataFilePath(&t.split.Files[i]), Deleted: deleted[i]})
	}
	return part, nil
}

// deletedRows merges a split of a primary-key table section by section
// and returns the deleted rows of each of its files (ExternalFile.Deleted):
// the records the merge consumes without returning them, and the rows of
// the file's deletion vector, which the merge never sees.
func (r *reader) deletedRows(ctx context.Context, s *Split) ([][]int64, error) {
	b := &r.plan.Buckets[s.Bucket]
	ranges, err := scan.KeyRanges(r.schema, r.table.schemaOf(ctx), s.Files)
	if err != nil {
		return nil, err
	}
	index := make(map[*spec.DataFileMeta]int, len(s.Files))
	for i := range s.Files {
		if s.Files[i].RowCount >= 1<<originShift {
			return nil, fmt.Errorf("%w: data file %s of %d rows", lakeerr.ErrUnsupported, s.Files[i].FileName, s.Files[i].RowCount)
		}
		index[&s.Files[i]] = i
	}
	tracker := newDeletionTracker(len(s.Files), index)
	for _, runs := range lsm.PartitionIntervals(ranges, r.compareKeys) {
		if keepsEveryRow(b, runs) {
			continue
		}
		if err := r.trackSection(ctx, b, runs, tracker); err != nil {
			return nil, err
		}
	}
	for i := range s.Files {
		dv, err := r.deletionVector(ctx, b, s.Files[i].FileName)
		if err != nil {
			return nil, err
		}
		if dv != nil {
			tracker.deleted[i] = slices.Concat(tracker.deleted[i], dv.Positions())
			slices.Sort(tracker.deleted[i])
		}
	}
	return tracker.deleted, nil
}

// keepsEveryRow reports whether a section's merge returns every stored
// row: it has one sorted run, so no key repeats, and no file of it
// records a retraction or has a deletion vector.
func keepsEveryRow(b *BucketPlan, runs []lsm.SortedRun[*spec.DataFileMeta]) bool {
	if len(runs) != 1 {
		return false
	}
	for _, f := range runs[0] {
		if _, dv := b.DeletionFiles[f.FileName]; dv || f.Payload.DeleteRowCount == nil || *f.Payload.DeleteRowCount != 0 {
			return false
		}
	}
	return true
}

// trackSection merges one section and records its deleted rows.
func (r *reader) trackSection(ctx context.Context, b *BucketPlan, runs []lsm.SortedRun[*spec.DataFileMeta], tracker *deletionTracker) (err error) {
	merged, closeAll, err := r.mergeSection(runs, func(f *spec.DataFileMeta, groupFilter predicate.Predicate) (recordFile, error) {
		i := tracker.index[f]
		records, err := r.openKeyRecords(ctx, b, f, groupFilter, int64(i)<<originShift)
		if err != nil {
			return nil, err
		}
		return &trackedRecords{recordFile: records, pending: &tracker.pending[i]}, nil
	})
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeAll()) }()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		kv, ok, err := merged.Next()
		if err != nil || !ok {
			tracker.finish()
			return err
		}
		if err := tracker.survives(kv.Origin); err != nil {
			return err
		}
	}
}

// deletionTracker tells the deleted rows of a split's files from the
// records the merge consumes and those it returns. Both come in row
// order within a file (a file holds its keys in key order, the merge
// returns keys in key order), so each file keeps a queue of the positions
// consumed and not yet returned: when the merge returns a record, the
// positions before it in its file were consumed without being returned.
type deletionTracker struct {
	index   map[*spec.DataFileMeta]int
	pending [][]int64
	deleted [][]int64
}

func newDeletionTracker(files int, index map[*spec.DataFileMeta]int) *deletionTracker {
	return &deletionTracker{index: index, pending: make([][]int64, files), deleted: make([][]int64, files)}
}

// survives records that the merge returned the record of origin.
func (d *deletionTracker) survives(origin int64) error {
	i, pos := int(origin>>originShift), origin&(1<<originShift-1)
	queue := d.pending[i]
	n, found := slices.BinarySearch(queue, pos)
	if !found {
		return fmt.Errorf("table: the merge returned row %d of file %d, which it did not read", pos, i)
	}
	d.deleted[i] = append(d.deleted[i], queue[:n]...)
	d.pending[i] = queue[n+1:]
	return nil
}

// finish deletes the rows the merge consumed and never returned.
func (d *deletionTracker) finish() {
	for i, queue := range d.pending {
		d.deleted[i] = append(d.deleted[i], queue...)
		d.pending[i] = nil
	}
}

// trackedRecords queues the row position of each record it passes on.
type trackedRecords struct {
	recordFile
	pending *[]int64
}

func (t *trackedRecords) Next() (lsm.KeyValue, bool, error) {
	kv, ok, err := t.recordFile.Next()
	if ok {
		*t.pending = append(*t.pending, kv.Origin&(1<<originShift-1))
	}
	return kv, ok, err
}
