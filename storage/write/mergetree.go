package write

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/lakesql/lakesql/storage/internal/ids"
	"github.com/lakesql/lakesql/storage/lsm"
	"github.com/lakesql/lakesql/storage/spec"
)

// mergeTreeWriter writes one bucket of a primary-key table. Mirrors
// MergeTreeWriter with SortBufferWriteBuffer (and its external, spilling
// form). Every flush adds level-0 files; with inline set, compactions
// rewrite them after flushes.
type mergeTreeWriter struct {
	env     *writerEnv
	files   *bucketFiles
	nextSeq int64
	// inline compacts the bucket; nil when the writer does not compact.
	inline *inlineCompaction
	// buffer holds the records since the last spill or flush, in write
	// order; bufferBytes is their estimated memory.
	buffer      *recordBuffer
	bufferBytes int64
	spills      []*spillRun
	scratch     []any
	// aheadFrom, when non-negative, is where the files flushAhead wrote
	// start: the next flush hands them to the inline compaction.
	aheadFrom int
}

func newMergeTreeWriter(env *writerEnv, dir string, nextSeq int64) *mergeTreeWriter {
	return &mergeTreeWriter{
		env:       env,
		files:     newBucketFiles(env, dir, keyValueLayout{settings: env.settings}),
		nextSeq:   nextSeq,
		buffer:    &recordBuffer{},
		aheadFrom: -1,
	}
}

// write buffers a validated row, taking the next sequence number. The row
// is kept, not copied; the key is stored in the spare capacity of its
// backing array, which the TableWriter reserves, so a record costs one
// allocation. It returns the estimated bytes the record holds.
func (w *mergeTreeWriter) write(_ context.Context, row []any, kind spec.RowKind) (int64, error) {
	key := w.env.settings.key
	n := len(row)
	full := slices.Grow(row, len(key.indexes))
	keyValues := key.project(row, full[n:n])
	w.buffer.add(lsm.KeyValue{Key: keyValues, Seq: w.nextSeq, Kind: kind, Value: full[:n:n]})
	w.nextSeq++
	size := estimateRecordBytes(row, len(key.indexes))
	w.bufferBytes += size
	return size, nil
}

func (w *mergeTreeWriter) memory() int64 { return w.bufferBytes }

// release frees the buffer's memory: it is sorted and spilled to local disk
// when the table allows it (write-buffer-spillable), else flushed to data
// files. Too many spilled runs to merge at once also force a flush.
// It returns the bytes freed.
func (w *mergeTreeWriter) release(ctx context.Context) (int64, error) {
	freed := w.bufferBytes
	if !w.env.settings.spillable || len(w.spills)+1 >= maxSpillRuns {
		return freed, w.flush(ctx)
	}
	run, err := writeSpillRun(w.env.spills, w.env.settings.valueTypes, w.sortedRun())
	if err != nil {
		return 0, err
	}
	w.spills = append(w.spills, run)
	w.buffer, w.bufferBytes = &recordBuffer{}, 0
	return freed, nil
}

func (w *mergeTreeWriter) sortedRun() *sortedRun {
	return &sortedRun{buffer: w.buffer, order: w.env.settings.sortedOrder(w.buffer)}
}

// flush writes the buffer as level-0 files and lets the inline compaction
// see them.
func (w *mergeTreeWriter) flush(ctx context.Context) error {
	written := len(w.files.written)
	if w.aheadFrom >= 0 {
		written, w.aheadFrom = w.aheadFrom, -1
	}
	if err := w.flushBuffer(ctx); err != nil || w.inline == nil {
		return err
	}
	return w.inline.flushed(ctx, w.files.written[written:])
}

// flushAhead writes the buffer as level-0 files and leaves telling the
// inline compaction to the next flush. It touches nothing but this
// bucket's own state and files, so the buckets of a TableWriter flush
// ahead at the same time (see TableWriter.prepareAhead).
func (w *mergeTreeWriter) flushAhead(ctx context.Context) error {
	if w.aheadFrom < 0 {
		w.aheadFrom = len(w.files.written)
	}
	return w.flushBuffer(ctx)
}

// compactAhead is prepare after flushAhead, with the files of its
// compactions named from seed rather than the writer's shared generator,
// so that buckets compact at the same time and their files are named the
// same whatever order they run in.
func (w *mergeTreeWriter) compactAhead(ctx context.Context, seed string) error {
	if w.inline == nil {
		return w.prepare(ctx)
	}
	shared := w.inline.request.NewUUID
	w.inline.request.NewUUID = ids.Derived(seed)
	defer func() { w.inline.request.NewUUID = shared }()
	return w.prepare(ctx)
}

// flushBuffer merges the buffer and the spilled runs through the merge
// engine, keeping retractions (they delete older rows when read), and
// writes the result as level-0 files.
func (w *mergeTreeWriter) flushBuffer(ctx context.Context) (err error) {
	if w.buffer.len() == 0 && len(w.spills) == 0 {
		return nil
	}
	runs, closeRuns, err := w.openRuns()
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeRuns()) }()
	merged, err := w.env.settings.engine.NewMergeReader(runs, w.env.settings.compareKeys, true)
	if err != nil {
		return err
	}
	if err := w.writeMerged(ctx, merged); err != nil {
		return err
	}
	w.buffer, w.bufferBytes = &recordBuffer{}, 0
	return nil
}

// openRuns opens every spilled run plus the sorted buffer; the returned
// function closes and deletes the spill files.
func (w *mergeTreeWriter) openRuns() ([]lsm.RecordIterator, func() error, error) {
	var readers []*spillReader
	closeAll := func() error {
		var errs []error
		for _, r := range readers {
			errs = append(errs, r.Close())
		}
		for _, run := range w.spills {
			errs = append(errs, os.Remove(run.path))
		}
		w.spills = nil
		return errors.Join(errs...)
	}
	runs := make([]lsm.RecordIterator, 0, len(w.spills)+1)
	for _, run := range w.spills {
		r, err := openSpillRun(run, w.env.settings.valueTypes, w.env.settings.key)
		if err != nil {
			return nil, nil, errors.Join(err, closeAll())
		}
		readers = append(readers, r)
		runs = append(runs, r)
	}
	return append(runs, w.sortedRun()), closeAll, nil
}

func (w *mergeTreeWriter) writeMerged(ctx context.Context, merged *lsm.MergeReader) error {
	for {
		kv, ok, err := merged.Next()
		if err != nil {
			return fmt.Errorf("merge write buffer: %w", err)
		}
		if !ok {
			return w.files.closeFile(ctx)
		}
		if err := w.writeRecord(ctx, kv); err != nil {
			return err
		}
	}
}

// writeRecord appends one merged record to the open file, in the key-value
// layout, and rolls the file at the target size. One key never spans two
// files, since the merge yields each key once.
func (w *mergeTreeWriter) writeRecord(ctx context.Context, kv lsm.KeyValue) error {
	f, err := w.files.current()
	if err != nil {
		return err
	}
	w.scratch = append(append(append(w.scratch[:0], kv.Key...), kv.Seq, int8(kv.Kind)), kv.Value...)
	if err := f.writer.Write(w.scratch); err != nil {
		return fmt.Errorf("encode data file %s: %w", f.name, err)
	}
	if f.firstKey == nil {
		f.firstKey = kv.Key
	}
	f.lastKey = kv.Key
	f.observe(kv.Value, kv.Seq, kv.Kind)
	return w.files.rollIfFull(ctx)
}

// prepare flushes and compacts if the strategy asks; drain and
// drainCompaction then hand over the files and the compaction increment.
func (w *mergeTreeWriter) prepare(ctx context.Context) error {
	if err := w.flush(ctx); err != nil || w.inline == nil {
		return err
	}
	return w.inline.prepared(ctx)
}

func (w *mergeTreeWriter) drain() []spec.DataFileMeta { return w.files.drain() }

// drainCompaction hands over what compactions replaced and produced since
// the last call.
func (w *mergeTreeWriter) drainCompaction() CompactedFiles {
	if w.inline == nil {
		return CompactedFiles{}
	}
	return w.inline.drain()
}

// discard drops the buffer and spills and deletes files not handed over.
func (w *mergeTreeWriter) discard(ctx context.Context) error {
	var errs []error
	for _, run := range w.spills {
		if err := os.Remove(run.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	w.spills, w.buffer, w.bufferBytes = nil, &recordBuffer{}, 0
	if w.inline != nil {
		errs = append(errs, w.inline.discard(ctx))
	}
	return errors.Join(append(errs, w.files.discard(ctx))...)
}
