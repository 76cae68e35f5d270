package parquetio

import (
	"errors"
	"io"

	"github.com/lakesql/lakesql/storage/spec"
	"github.com/parquet-go/parquet-go"
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
	*groupWalk
	columns []valueReader // nil for columns absent from the file
	one     [1][]any
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
	if err := r.checkRowGroups(rowGroups); err != nil {
		return nil, err
	}
	return r.NewRowRangeIterator(columns, r.wholeGroups(rowGroups))
}

// NewRowRangeIterator reads the requested columns from the given row
// ranges only, in the given order, reading only the pages that hold them
// where the file has offset indexes; positions stay file positions.
func (r *Reader) NewRowRangeIterator(columns []ColumnRequest, ranges []RowRange) (it *RowIterator, err error) {
	defer recoverCorruption(r.name, &err)
	if err := r.checkRanges(ranges); err != nil {
		return nil, err
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
	chunks := make([]chunkReader, len(b.cursors))
	for i, c := range b.cursors {
		chunks[i] = c
	}
	return &RowIterator{groupWalk: r.newGroupWalk(ranges, chunks, b.leafOf), columns: readers}, nil
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
func (it *RowIterator) NextBatch(dst [][]any) (int, error) {
	return it.next(len(dst), func(n int) error { return it.decode(dst[:n]) })
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

// skipRows passes over the entries of n rows: each row's first entry and
// those that repeat within it.
func (c *leafCursor) skipRows(n, keep int64) error {
	if c.flat && c.pos == len(c.buf) && c.values == nil {
		return c.skipFlatPages(n, keep)
	}
	for ; n > 0; n-- {
		if _, err := c.next(); err != nil {
			return err
		}
		for {
			v, err := c.peek()
			if err != nil {
				return err
			}
			if v == nil || v.RepetitionLevel() == 0 {
				break
			}
			c.pos++
		}
	}
	return nil
}

// skipFlatPages passes over n rows of a flat column from a page boundary
// without decoding their values: a point read's row is one of a page's
// 20,000, and turning the rows before it into parquet.Values would cost
// more than the rest of the read. Whole pages go by their row counts, and
// the page holding the next row is sliced from it to the last of the keep
// rows read next, at most: parquet-go copies a slice's values, and copying
// a 20,000-row page's tail for one row was half of a point read's memory.
func (c *leafCursor) skipFlatPages(n, keep int64) error {
	for n > 0 && !c.done {
		c.releasePage()
		page, err := c.pages.ReadPage()
		if errors.Is(err, io.EOF) {
			c.done = true
			break
		}
		if err != nil {
			return err
		}
		if rows := page.NumRows(); rows <= n {
			n -= rows
			parquet.Release(page)
			continue
		}
		c.page, c.values = page, page.Slice(n, min(page.NumRows(), n+keep)).Values()
		n = 0
	}
	if n > 0 {
		return errMissingValues
	}
	return nil
}

// hasMore makes leafCursor a chunkReader.
func (c *leafCursor) hasMore() (bool, error) {
	v, err := c.peek()
	return v != nil, err
}

// Close releases the iterator's page buffers. It is safe to call twice.
func (it *RowIterator) Close() error { return it.groupWalk.Close() }
