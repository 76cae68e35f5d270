package parquetio

import (
	"errors"
	"io"
	"sort"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"github.com/lakesql/lakesql/storage/vector"
)

// NarrowSorted narrows each of ranges to the rows whose value of column
// req lies within bounds, for a file whose rows are sorted by that
// column, ascending, as a primary-key table's data file is by its first
// key field. The rows within the bounds are then one stretch of each
// range: a binary search over each page's values finds it, reading only
// the pages of the range (cached ones come decoded from the page cache)
// and comparing a few values of each instead of filtering all of them.
// Ranges with no row within the bounds are dropped. A range is kept
// whole when the column is missing, nested, NULL somewhere or of a type
// bounds cannot compare.
func (r *Reader) NarrowSorted(req ColumnRequest, ranges []RowRange, bounds vector.Bounds) (out []RowRange, err error) {
	defer recoverCorruption(r.name, &err)
	if err := r.checkRanges(ranges); err != nil {
		return nil, err
	}
	node := r.findColumn(req)
	if node == nil || node.maxRep > 0 || !r.CanVectorize(req) || !sortable(node.physical(), bounds.Kind) {
		return ranges, nil
	}
	if bounds.Empty() {
		return nil, nil
	}
	src := &trackedSource{src: r.src, size: r.size}
	for _, rg := range ranges {
		narrowed, err := r.narrowRange(src, node, rg, &bounds)
		if err != nil {
			return nil, src.classify(r.name, err)
		}
		if narrowed.From < narrowed.To {
			out = append(out, narrowed)
		}
	}
	return out, nil
}

// sortable reports whether bounds of kind compare the physical values of
// a column directly.
func sortable(physical format.Type, kind vector.Kind) bool {
	switch physical {
	case format.Int32, format.Int64:
		return kind == vector.Int32s || kind == vector.Int64s
	case format.ByteArray:
		return kind == vector.Bytes
	}
	return false
}

// narrowRange returns the stretch of rg within bounds, walking the pages
// that hold rg: pages before the stretch are passed over by their last
// value, the page where it starts and the page where it ends are searched.
func (r *Reader) narrowRange(src *trackedSource, node *schemaNode, rg RowRange, bounds *vector.Bounds) (RowRange, error) {
	if rg.From == rg.To {
		return rg, nil
	}
	pages, skip, err := r.openChunkRows(src, rg.Group, node.leaf, rg.From, rg.To)
	if err != nil {
		return RowRange{}, err
	}
	defer pages.Close()
	s := stretch{RowRange: RowRange{Group: rg.Group, From: rg.To, To: rg.To}}
	for row := rg.From - skip; row < rg.To; {
		page, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return RowRange{}, errMissingValues
		}
		if err != nil {
			return RowRange{}, err
		}
		n := int64(page.NumValues())
		searchable, ended := s.search(page, node.physical(), row, rg, bounds)
		parquet.Release(page)
		switch {
		case !searchable:
			return rg, nil
		case ended:
			return s.RowRange, nil
		}
		row += n
	}
	return s.RowRange, nil
}

// stretch is the stretch of a range within bounds, found page by page.
type stretch struct {
	RowRange
	started bool
}

// search looks for the stretch's start (until found) and end in the rows
// of rg that page holds, the page's first row being row. searchable is
// false for a page with NULLs; ended reports that the stretch ends in it.
func (s *stretch) search(page parquet.Page, physical format.Type, row int64, rg RowRange, bounds *vector.Bounds) (searchable, ended bool) {
	values, ok := sortedValuesOf(page, physical)
	if !ok {
		return false, false
	}
	lo, hi := max(rg.From, row)-row, min(rg.To, row+int64(page.NumValues()))-row
	if !s.started && lo < hi {
		i := lo + int64(sort.Search(int(hi-lo), func(k int) bool { return values.place(bounds, int(lo)+k) >= 0 }))
		s.started, s.From, lo = i < hi, row+i, i
	}
	if s.started && lo < hi {
		j := lo + int64(sort.Search(int(hi-lo), func(k int) bool { return values.place(bounds, int(lo)+k) > 0 }))
		if j < hi {
			s.To = row + j
			return true, true
		}
	}
	return true, false
}

// sortedValues give access to the values of a page without NULLs, looked
// up in its dictionary where it has one, without copying them.
type sortedValues struct {
	physical format.Type
	dense    denseValues
	// indexes are the dictionary indexes of a dictionary-encoded page,
	// into the dictionary's values; nil for a plain page.
	indexes []int32
}

// sortedValuesOf returns the values of a page of a column of the given
// physical type, which sortable accepted; ok is false when some are NULL.
func sortedValuesOf(page parquet.Page, physical format.Type) (values sortedValues, ok bool) {
	values.physical = physical
	if page.NumNulls() > 0 {
		return values, false
	}
	if dict := page.Dictionary(); dict != nil {
		indexes := page.Data()
		values.indexes = indexes.Int32()
		if int64(len(values.indexes)) != page.NumValues() {
			return values, false
		}
		page = dict.Page()
	}
	values.dense = denseOf(page, physical)
	return values, true
}

// place places value j of the page against the bounds, as
// vector.Bounds.IntPlace does; an index outside the dictionary panics,
// which NarrowSorted reports as corruption.
func (v *sortedValues) place(b *vector.Bounds, j int) int {
	if v.indexes != nil {
		j = int(v.indexes[j])
	}
	switch v.physical {
	case format.Int32:
		return b.IntPlace(int64(v.dense.i32[j]))
	case format.Int64:
		return b.IntPlace(v.dense.i64[j])
	}
	return b.BytesPlace(v.dense.value(j))
}
