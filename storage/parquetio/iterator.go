package parquetio

import (
	"fmt"
	"io"

	"github.com/lakesql/lakesql/storage/spec"
)

// ColumnRequest selects a file column and the Paimon type to decode it as:
// the type of the column in the table schema the file was written with.
// Columns absent from the file read as nil, as do ROW fields absent from
// a group.
type ColumnRequest struct {
	// Name matches the column name, as Java Paimon matches file columns.
	Name string
	// FieldID selects the column by Parquet field id instead when
	// MatchFieldID is set; Name is the fallback when no column carries it.
	FieldID      int
	MatchFieldID bool
	Type         spec.DataType
}

// RowIterator streams rows of the requested columns. It is not safe for
// concurrent use; Close releases its buffers.
type RowIterator struct {
	reader    *Reader
	src       *trackedSource
	columns   []valueReader // nil for columns absent from the file
	cursors   []*leafCursor
	leafOf    []int
	rowGroups []int
	group     int   // index into rowGroups of the current group
	remaining int64 // rows of the current group not yet returned
	nextRow   int64 // file position of the next row
	position  int64
	one       [1][]any
	err       error // sticky: the iterator stops at its first failure
}

// NewRowIterator reads the requested columns from every row group.
func (r *Reader) NewRowIterator(columns []ColumnRequest) (*RowIterator, error) {
	all := make([]int, len(r.rowGroups))
	for i := range all {
		all[i] = i
	}
	return r.NewRowGroupIterator(columns, all)
}

// NewRowGroupIterator reads the requested columns from the given row
// groups only, in the given order; positions stay file positions.
func (r *Reader) NewRowGroupIterator(columns []ColumnRequest, rowGroups []int) (it *RowIterator, err error) {
	defer recoverCorruption(r.name, &err)
	for _, g := range rowGroups {
		if g < 0 || g >= len(r.rowGroups) {
			return nil, fmt.Errorf("parquetio: %s: row group %d out of range [0,%d)", r.name, g, len(r.rowGroups))
		}
	}
	b := &readerBuilder{file: r.name}
	readers := make([]valueReader, len(columns))
	for i, req := range columns {
		node := r.findColumn(req)
		if node == nil {
			continue
		}
		if readers[i], err = b.build(node, req.Type, node.name()); err != nil {
			return nil, err
		}
	}
	return &RowIterator{
		reader: r, src: &trackedSource{src: r.src, size: r.size}, columns: readers,
		cursors: b.cursors, leafOf: b.leafOf, rowGroups: rowGroups, group: -1,
	}, nil
}

// Next returns the next row, a new slice with one value per requested
// column, or io.EOF after the last row.
func (it *RowIterator) Next() ([]any, error) {
	it.one[0] = nil
	if _, err := it.NextBatch(it.one[:]); err != nil {
		return nil, err
	}
	return it.one[0], nil
}

// Position returns the file position (row index within the file) of the
// row last returned by Next, or of the first row of the last batch. The
// rows of a batch have consecutive positions: a batch never spans row
// groups. Deletion vectors address rows by this position.
func (it *RowIterator) Position() int64 { return it.position }

// NextBatch decodes up to len(dst) rows into dst, reusing each dst[i] when
// its capacity suffices, and returns how many it filled. It returns fewer
// rows at the end of a row group and 0, io.EOF after the last row.
func (it *RowIterator) NextBatch(dst [][]any) (n int, err error) {
	if it.err != nil {
		return 0, it.err
	}
	defer func() {
		if err != nil && err != io.EOF {
			err = it.src.classify(it.reader.name, missingValuesError(it.reader.name, err))
			it.close()
		}
		it.err = err
	}()
	defer recoverCorruption(it.reader.name, &err)
	for it.remaining == 0 {
		if err := it.nextGroup(); err != nil {
			return 0, err
		}
	}
	n = int(min(int64(len(dst)), it.remaining))
	if err := it.decode(dst[:n]); err != nil {
		return 0, err
	}
	it.position, it.nextRow, it.remaining = it.nextRow, it.nextRow+int64(n), it.remaining-int64(n)
	if it.remaining == 0 {
		return n, it.checkGroupEnd()
	}
	return n, nil
}

// decode fills rows column by column, which keeps each column's decoding
// state hot.
func (it *RowIterator) decode(rows [][]any) error {
	for i := range rows {
		if cap(rows[i]) < len(it.columns) {
			rows[i] = make([]any, len(it.columns))
		}
		rows[i] = rows[i][:len(it.columns)]
	}
	for c, col := range it.columns {
		for _, row := range rows {
			if col == nil {
				row[c] = nil
				continue
			}
			v, err := col.read()
			if err != nil {
				return err
			}
			row[c] = v
		}
	}
	return nil
}

func (it *RowIterator) nextGroup() error {
	it.group++
	if it.group >= len(it.rowGroups) {
		it.close()
		return io.EOF
	}
	g := it.rowGroups[it.group]
	for i, c := range it.cursors {
		pages, err := it.reader.openChunk(it.src, g, it.leafOf[i])
		if err != nil {
			return err
		}
		c.reset(pages)
	}
	it.remaining = it.reader.rowGroups[g].NumRows
	it.nextRow = it.reader.rowGroups[g].FirstRow
	return nil
}

// checkGroupEnd verifies that every column chunk ended with the group's
// last row.
func (it *RowIterator) checkGroupEnd() error {
	for i, c := range it.cursors {
		v, err := c.peek()
		if err != nil {
			return err
		}
		if v != nil {
			return corruptionf(it.reader.name, "column chunk %d of row group %d holds more values than its %d rows",
				it.leafOf[i], it.rowGroups[it.group], it.reader.rowGroups[it.rowGroups[it.group]].NumRows)
		}
	}
	return nil
}

// Close releases the iterator's page buffers. It is safe to call twice.
func (it *RowIterator) Close() error {
	it.close()
	if it.err == nil {
		it.err = errClosed
	}
	return nil
}

func (it *RowIterator) close() {
	for _, c := range it.cursors {
		c.close()
	}
}

var errClosed = fmt.Errorf("parquetio: iterator closed")
