package parquetio

import (
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
)

// chunkReader reads the column chunk of one leaf column in the current row
// group: leafCursor for RowIterator, vectorColumn for VectorIterator.
type chunkReader interface {
	reset(pages parquet.Pages)
	// hasMore reports whether the chunk holds values past the consumed
	// rows.
	hasMore() (bool, error)
	// skipRows passes over n rows at the start of the pages it was given,
	// for walks of row ranges, of which the walk then reads keep rows.
	skipRows(n, keep int64) error
	close()
}

// groupWalk is the row-group bookkeeping RowIterator and VectorIterator
// share: it opens the chunks of each requested row range (a whole row
// group, or only the pages of some of its rows) in turn,
// hands out batches that never span ranges, tracks their file positions,
// checks that the chunks of each group read whole end with its rows, and
// keeps the first failure.
type groupWalk struct {
	reader    *Reader
	src       *trackedSource
	chunks    []chunkReader
	leaves    []int // the leaf column index of each chunk
	ranges    []RowRange
	group     int   // index into ranges of the current range
	remaining int64 // rows of the current group not yet returned
	nextRow   int64 // file position of the next row
	position  int64
	err       error // sticky: the walk stops at its first failure
}

// newGroupWalk walks the given row ranges of r, in the given order.
func (r *Reader) newGroupWalk(ranges []RowRange, chunks []chunkReader, leaves []int) *groupWalk {
	return &groupWalk{
		reader: r, src: &trackedSource{src: r.src, size: r.size},
		chunks: chunks, leaves: leaves, ranges: ranges, group: -1,
	}
}

// checkRowGroups rejects row group indexes the file does not have.
func (r *Reader) checkRowGroups(rowGroups []int) error {
	for _, g := range rowGroups {
		if g < 0 || g >= len(r.rowGroups) {
			return fmt.Errorf("parquetio: %s: row group %d out of range [0,%d)", r.name, g, len(r.rowGroups))
		}
	}
	return nil
}

// next has decode read the next batch, up to maxRows rows of the current
// row group (moving to the next group with rows first), and returns its
// size. It returns 0, io.EOF after the last row.
func (w *groupWalk) next(maxRows int, decode func(n int) error) (n int, err error) {
	if w.err != nil {
		return 0, w.err
	}
	defer func() {
		if err != nil && err != io.EOF {
			err = w.src.classify(w.reader.name, missingValuesError(w.reader.name, err))
			w.close()
		}
		w.err = err
	}()
	defer recoverCorruption(w.reader.name, &err)
	for w.remaining == 0 {
		if err := w.nextGroup(); err != nil {
			return 0, err
		}
	}
	n = int(min(int64(maxRows), w.remaining))
	if err := decode(n); err != nil {
		return 0, err
	}
	w.position, w.nextRow, w.remaining = w.nextRow, w.nextRow+int64(n), w.remaining-int64(n)
	if w.remaining == 0 {
		return n, w.checkGroupEnd()
	}
	return n, nil
}

func (w *groupWalk) nextGroup() error {
	w.group++
	if w.group >= len(w.ranges) {
		w.close()
		return io.EOF
	}
	rg := w.ranges[w.group]
	group := w.reader.rowGroups[rg.Group]
	for i, c := range w.chunks {
		if err := w.openRange(c, w.leaves[i], rg, group.NumRows); err != nil {
			return err
		}
	}
	w.remaining = rg.To - rg.From
	w.nextRow = group.FirstRow + rg.From
	return nil
}

// openRange gives chunk c the pages of its column that hold the rows of
// rg, passing over the rows of the first page that precede them.
func (w *groupWalk) openRange(c chunkReader, leaf int, rg RowRange, groupRows int64) error {
	if rg.From == 0 && rg.To == groupRows {
		pages, err := w.reader.openChunk(w.src, rg.Group, leaf)
		if err != nil {
			return err
		}
		c.reset(pages)
		return nil
	}
	if rg.From == rg.To {
		// No rows to read: the walk moves on to the next range at once.
		return nil
	}
	pages, skip, err := w.reader.openChunkRows(w.src, rg.Group, leaf, rg.From, rg.To)
	if err != nil {
		return err
	}
	c.reset(pages)
	return c.skipRows(skip, rg.To-rg.From)
}

// checkGroupEnd verifies that every column chunk ended with the group's
// last row, when the range read the group to its end.
func (w *groupWalk) checkGroupEnd() error {
	rg := w.ranges[w.group]
	if rg.To != w.reader.rowGroups[rg.Group].NumRows {
		return nil
	}
	for i, c := range w.chunks {
		more, err := c.hasMore()
		if err != nil {
			return err
		}
		if more {
			g := rg.Group
			return corruptionf(w.reader.name, "column chunk %d of row group %d holds more values than its %d rows",
				w.leaves[i], g, w.reader.rowGroups[g].NumRows)
		}
	}
	return nil
}

// Close releases the page buffers. It is safe to call twice.
func (w *groupWalk) Close() error {
	w.close()
	if w.err == nil {
		w.err = errClosed
	}
	return nil
}

func (w *groupWalk) close() {
	for _, c := range w.chunks {
		c.close()
	}
}

var errClosed = fmt.Errorf("parquetio: iterator closed")
