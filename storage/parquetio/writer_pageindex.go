package parquetio

import (
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// maxIndexBoundBytes is the length past which a text page bound is
// shortened in the column index (parquet.columnindex.truncate.length,
// 64).
const maxIndexBoundBytes = 64

// writtenPage is what the page indexes record of a data page: where it
// lies in its chunk's data pages, its first row in the row group, its
// nulls and bounds.
type writtenPage struct {
	offset, size int
	firstRow     int64
	nulls        int64
	onlyNulls    bool
	min, max     []byte
}

// chunkPageIndex is one column chunk's page indexes, as parquet-mr writes
// them after the row groups (ColumnIndex and OffsetIndex of
// parquet-format): the offset index locates every page and its first
// row, so a reader can fetch the pages of a row range alone; the column
// index, nil for a column without a usable order or whose float values
// include NaN (parquet-mr drops it then), bounds each page's values.
type chunkPageIndex struct {
	column *format.ColumnIndex
	offset format.OffsetIndex
}

// pageIndex builds the chunk's page indexes, its data pages starting at
// file offset dataStart.
func (c *columnWriter) pageIndex(dataStart int64) chunkPageIndex {
	var idx chunkPageIndex
	for _, p := range c.pages {
		idx.offset.PageLocations = append(idx.offset.PageLocations, format.PageLocation{
			Offset: dataStart + int64(p.offset), CompressedPageSize: int32(p.size), FirstRowIndex: p.firstRow,
		})
	}
	if c.stats.less == nil || c.stats.sawNaN {
		return idx
	}
	column := &format.ColumnIndex{}
	for _, p := range c.pages {
		column.NullPages = append(column.NullPages, p.onlyNulls)
		column.NullCounts = append(column.NullCounts, p.nulls)
		lo, hi := p.min, p.max
		if p.onlyNulls {
			lo, hi = []byte{}, []byte{}
		} else if c.physical == format.ByteArray {
			lo, hi = shortLowerBound(lo), shortUpperBound(hi)
		}
		column.MinValues = append(column.MinValues, lo)
		column.MaxValues = append(column.MaxValues, hi)
	}
	column.BoundaryOrder = boundaryOrder(column, c.stats.less)
	idx.column = column
	return idx
}

// boundaryOrder is ASCENDING when the bounds of the pages that hold
// values never decrease from page to page, DESCENDING when they never
// increase, else UNORDERED: a sorted key's column index is searched by
// bisection.
func boundaryOrder(c *format.ColumnIndex, less func(a, b []byte) bool) format.BoundaryOrder {
	ascending, descending := true, true
	prev := -1
	for i, onlyNulls := range c.NullPages {
		if onlyNulls {
			continue
		}
		if prev >= 0 {
			if less(c.MinValues[i], c.MinValues[prev]) || less(c.MaxValues[i], c.MaxValues[prev]) {
				ascending = false
			}
			if less(c.MinValues[prev], c.MinValues[i]) || less(c.MaxValues[prev], c.MaxValues[i]) {
				descending = false
			}
		}
		prev = i
	}
	switch {
	case ascending:
		return format.Ascending
	case descending:
		return format.Descending
	}
	return format.Unordered
}

// shortLowerBound is b cut to maxIndexBoundBytes: a prefix sorts no later
// than the value.
func shortLowerBound(b []byte) []byte {
	if len(b) <= maxIndexBoundBytes {
		return b
	}
	return b[:maxIndexBoundBytes]
}

// shortUpperBound is b cut to maxIndexBoundBytes with its last byte that
// is not 0xFF incremented, which sorts after every value of that prefix;
// b itself when no such byte is left to increment.
func shortUpperBound(b []byte) []byte {
	if len(b) <= maxIndexBoundBytes {
		return b
	}
	bound := append([]byte(nil), b[:maxIndexBoundBytes]...)
	for i := len(bound) - 1; i >= 0; i-- {
		if bound[i] != 0xFF {
			bound[i]++
			return bound[:i+1]
		}
	}
	return b
}

// writePageIndexes writes every chunk's column index, then every chunk's
// offset index, as parquet-mr lays them out between the last row group
// and the footer, and points the chunks' metadata at them.
func (w *Writer) writePageIndexes() error {
	for g := range w.rowGroups {
		for c, idx := range w.pageIndexes[g] {
			if idx.column == nil {
				continue
			}
			offset, length, err := w.writeThrift(idx.column)
			if err != nil {
				return err
			}
			chunk := &w.rowGroups[g].Columns[c]
			chunk.ColumnIndexOffset, chunk.ColumnIndexLength = offset, length
		}
	}
	for g := range w.rowGroups {
		for c := range w.pageIndexes[g] {
			offset, length, err := w.writeThrift(&w.pageIndexes[g][c].offset)
			if err != nil {
				return err
			}
			chunk := &w.rowGroups[g].Columns[c]
			chunk.OffsetIndexOffset, chunk.OffsetIndexLength = offset, length
		}
	}
	return nil
}

// writeThrift writes v in the compact protocol and returns where.
func (w *Writer) writeThrift(v any) (offset int64, length int32, err error) {
	b, err := thrift.Marshal(new(thrift.CompactProtocol), v)
	if err != nil {
		return 0, 0, err
	}
	offset = w.offset
	return offset, int32(len(b)), w.write(b)
}
