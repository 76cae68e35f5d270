package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/lakesql/lakesql/storage/lakeerr"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/vector"
)

// batchRows is the number of rows workers hand over at once: large enough
// to amortise channel operations, small enough to bound memory.
const batchRows = 256

// firstBatchRows is the capacity a split's first batch starts with.
const firstBatchRows = 8

// cancelCheckRows is how often a worker that emits nothing (a selective
// filter) checks whether the read was cancelled.
const cancelCheckRows = 1024

// task is one split to read and what turns its rows into output rows.
type task struct {
	r     *reader
	split *Split
	// outputFilter, if set, is applied after the rows are converted to the
	// read's schema (the fallback part).
	outputFilter predicate.Predicate
	projection   []int
	// keys, when set, merges the split over its keys only (newKeyReader),
	// for a read that takes a merged split's files less their deleted
	// rows instead of its merged rows.
	keys *reader
}

// batch is rows of one task, or the error that ended it.
type batch struct {
	rows [][]any
	err  error
}

// Rows iterates the rows of one pinned snapshot, read by a bounded pool of
// workers, each reading one split at a time. Memory is bounded by the
// batches in flight: a few per worker. Rows is not safe for concurrent
// use. Close stops the workers and closes their files; call it even after
// io.EOF or an error (it is safe to call twice).
type Rows struct {
	snapshot *spec.Snapshot
	fields   []spec.DataField
	// remaining counts down a limit; 0 without one.
	remaining int64
	limited   bool
	batchRows int

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// Ordered reads: one channel per task, consumed in task order, and a
	// window of tasks that may be in flight (read but not consumed).
	chans  []chan batch
	window chan struct{}
	cur    int
	// Unordered reads: one channel for all tasks.
	out chan batch
	// solo is the one task of a point read, read on the caller's
	// goroutine (see pointRead); src is its split once opened, and
	// pulled counts the rows taken from src.
	solo   *task
	src    rowSource
	pulled int

	rows [][]any
	pos  int
	err  error
	done bool
}

func (rs *Rows) start(ctx context.Context, tasks []task, workers int, ordered bool) {
	rs.ctx, rs.cancel = context.WithCancel(ctx)
	rs.limited = rs.remaining > 0
	if len(tasks) == 1 && tasks[0].pointRead() {
		rs.solo = &tasks[0]
		return
	}
	var next atomic.Int64
	if ordered {
		rs.chans = make([]chan batch, len(tasks))
		for i := range rs.chans {
			rs.chans[i] = make(chan batch, 1)
		}
		rs.window = make(chan struct{}, 2*workers)
	} else {
		rs.out = make(chan batch, workers)
	}
	for range workers {
		rs.wg.Add(1)
		go rs.work(tasks, &next)
	}
	if !ordered {
		go func() {
			rs.wg.Wait()
			close(rs.out)
		}()
	}
}

// work reads tasks in order until none is left or the read is cancelled.
func (rs *Rows) work(tasks []task, next *atomic.Int64) {
	defer rs.wg.Done()
	for {
		if rs.window != nil && !rs.acquire() {
			return
		}
		i := int(next.Add(1) - 1)
		if i >= len(tasks) || rs.ctx.Err() != nil {
			return
		}
		out := rs.out
		if rs.chans != nil {
			out = rs.chans[i]
		}
		err := rs.run(&tasks[i], out)
		if err != nil && rs.ctx.Err() == nil {
			rs.send(out, batch{err: tasks[i].vanishedFileError(rs.ctx, err)})
		}
		if rs.chans != nil {
			close(out)
		}
	}
}

// acquire takes a place in the window of ordered tasks in flight.
func (rs *Rows) acquire() bool {
	select {
	case rs.window <- struct{}{}:
		return true
	case <-rs.ctx.Done():
		return false
	}
}

func (rs *Rows) send(out chan batch, b batch) bool {
	select {
	case out <- b:
		return true
	case <-rs.ctx.Done():
		return false
	}
}

// run reads one split, filters and projects its rows, and sends them in
// batches; it stops early when the read is cancelled.
func (rs *Rows) run(t *task, out chan batch) (err error) {
	defer recoverSplit(t, &err)
	src, err := t.r.openSplit(rs.ctx, t.split)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, src.Close()) }()
	// The first batch grows from a few rows: a point read's split sends
	// one row, and a full batch of capacity for it was most of its memory.
	buf := make([][]any, 0, min(rs.batchRows, firstBatchRows))
	for n := 1; ; n++ {
		if n%cancelCheckRows == 0 && rs.ctx.Err() != nil {
			return nil
		}
		row, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		row, keep, err := t.output(row)
		if err != nil {
			return err
		}
		if !keep {
			continue
		}
		if buf = append(buf, row); len(buf) == rs.batchRows {
			if !rs.send(out, batch{rows: buf}) {
				return nil
			}
			buf = make([][]any, 0, rs.batchRows)
		}
	}
	if len(buf) > 0 {
		rs.send(out, batch{rows: buf})
	}
	return nil
}

// output filters a row of the task's plan and turns it into an output
// row; keep is false when the row is filtered out.
func (t *task) output(row []any) (out []any, keep bool, err error) {
	if t.r.residual.Eval(row) != predicate.True {
		return nil, false, nil
	}
	var kind any
	if t.r.withRowKind {
		kind, row = row[len(row)-1].(spec.RowKind).String(), row[:len(row)-1]
	}
	if row, err = t.r.toRead(row); err != nil {
		return nil, false, err
	}
	if t.outputFilter != nil && t.outputFilter.Eval(row) != predicate.True {
		return nil, false, nil
	}
	if t.projection == nil && kind == nil {
		return row, true, nil
	}
	width := len(row)
	if t.projection != nil {
		width = len(t.projection)
	}
	out = make([]any, 0, width+1)
	if kind != nil {
		out = append(out, kind)
	}
	if t.projection == nil {
		return append(out, row...), true, nil
	}
	for _, j := range t.projection {
		out = append(out, row[j])
	}
	return out, true, nil
}

// Next returns the next row, or io.EOF after the last one. A returned row
// belongs to the caller.
func (rs *Rows) Next() ([]any, error) {
	if rs.solo != nil {
		return rs.nextSolo()
	}
	for {
		if rs.pos < len(rs.rows) {
			return rs.take(), nil
		}
		if rs.err != nil {
			return nil, rs.err
		}
		if rs.done {
			return nil, io.EOF
		}
		b, ok := rs.receive()
		switch {
		case !ok:
			rs.finish()
		case b.err != nil:
			rs.err = b.err
			rs.finish()
		default:
			rs.rows, rs.pos = b.rows, 0
		}
	}
}

// take returns the next buffered row, and ends the read when it is the
// last the limit allows.
func (rs *Rows) take() []any {
	row := rs.rows[rs.pos]
	rs.rows[rs.pos] = nil
	rs.pos++
	if rs.limited {
		if rs.remaining--; rs.remaining == 0 {
			rs.rows, rs.pos = nil, 0
			rs.finish()
		}
	}
	return row
}

// receive returns the next batch; false when no task has more.
func (rs *Rows) receive() (batch, bool) {
	if rs.chans == nil {
		select {
		case b, ok := <-rs.out:
			return b, ok
		case <-rs.ctx.Done():
			return batch{err: rs.ctx.Err()}, true
		}
	}
	for rs.cur < len(rs.chans) {
		select {
		case b, ok := <-rs.chans[rs.cur]:
			if ok {
				return b, true
			}
			rs.cur++
			<-rs.window
		case <-rs.ctx.Done():
			return batch{err: rs.ctx.Err()}, true
		}
	}
	return batch{}, false
}

// finish stops the workers and waits until every file they opened is
// closed.
func (rs *Rows) finish() {
	if rs.done {
		return
	}
	rs.done = true
	rs.cancel()
	rs.wg.Wait()
	if rs.src != nil {
		if err := rs.src.Close(); err != nil && rs.err == nil {
			rs.err = err
		}
		rs.src = nil
	}
}

// A point read (the conjuncts pin the first primary-key field to one
// value, and the plan has one split) returns a row or a few. Handing them
// over from a worker goroutine cost more than reading them: the worker's
// start, its stack growing through the open of a file, its channel and
// its wake-up, about 15 µs of a point select's 300. Its one split is read
// on the caller's goroutine instead, as the worker would read it.

// pointRead reports whether t is the split of a point read.
func (t *task) pointRead() bool {
	r := t.r
	keys := r.schema.TrimmedPrimaryKeys()
	if len(keys) == 0 || t.keys != nil {
		return false
	}
	bounds, ok := vector.BoundsOf(r.residual, r.schema.FieldIndex(keys[0]))
	return ok && bounds.Single()
}

// nextSolo returns the next row of the solo task, or io.EOF.
func (rs *Rows) nextSolo() ([]any, error) {
	for !rs.done && rs.err == nil {
		row, err := rs.soloRow()
		switch {
		case err == io.EOF:
			rs.finish()
		case err != nil:
			rs.err = rs.solo.vanishedFileError(rs.ctx, err)
			rs.finish()
		case row != nil:
			if rs.limited {
				if rs.remaining--; rs.remaining == 0 {
					rs.finish()
				}
			}
			return row, nil
		}
	}
	if rs.err != nil {
		return nil, rs.err
	}
	return nil, io.EOF
}

// soloRow reads the solo split up to its next output row; nil when the
// split's next row was filtered out. It opens the split the first time.
func (rs *Rows) soloRow() (row []any, err error) {
	t := rs.solo
	defer recoverSplit(t, &err)
	if rs.src == nil {
		if rs.src, err = t.r.openSplit(rs.ctx, t.split); err != nil {
			return nil, err
		}
	}
	if rs.pulled++; rs.pulled%cancelCheckRows == 0 && rs.ctx.Err() != nil {
		return nil, rs.ctx.Err()
	}
	if row, err = rs.src.Next(); err != nil {
		return nil, err
	}
	row, keep, err := t.output(row)
	if !keep {
		return nil, err
	}
	return row, err
}

// Close stops the read and releases its files.
func (rs *Rows) Close() error {
	rs.finish()
	rs.rows, rs.pos = nil, 0
	if rs.err == nil {
		rs.err = errRowsClosed
	}
	return nil
}

// recoverSplit turns a panic while reading a split into the read's error.
// Splits are read on worker goroutines, where a panic would end the whole
// process (a server with it); decoding a file that breaks an assumption of
// the decoder is the likely cause, so it is reported as corruption of the
// split's files.
func recoverSplit(t *task, err *error) {
	p := recover()
	if p == nil {
		return
	}
	names := make([]string, len(t.split.Files))
	for i, f := range t.split.Files {
		names[i] = f.FileName
	}
	*err = fmt.Errorf("%w: reading %v failed: %v", lakeerr.ErrCorruption, names, p)
}
