package table

import (
	"cmp"
	"slices"

	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
)

// rowRanges returns the rows of d that might hold a row for which pred is
// TRUE: the row groups rowGroups keeps, narrowed to the pages whose
// column-index bounds might (pageRanges). A point lookup then decodes
// one page of 20,000 rows per column instead of the whole file.
func (r *reader) rowRanges(d *dataFile, pred predicate.Predicate) ([]parquetio.RowRange, error) {
	groups, err := r.rowGroups(d, pred)
	if err != nil {
		return nil, err
	}
	var out []parquetio.RowRange
	for _, g := range groups {
		ranges, err := r.pageRanges(d, g, pred)
		if err != nil {
			return nil, err
		}
		out = append(out, ranges...)
	}
	return out, nil
}

// columnPages are the page statistics of one column the predicate reads.
type columnPages struct {
	column int // in the read row
	pages  []parquetio.PageStats
}

// pageRanges narrows row group g of d to the row ranges where pred might
// be TRUE. The pages of the columns pred reads have their own
// boundaries: each stretch between consecutive boundaries of any of them
// is tested with the bounds of the page of each column that holds it,
// and kept stretches that touch are joined. A group whose columns have no
// page statistics is kept whole.
func (r *reader) pageRanges(d *dataFile, g int, pred predicate.Predicate) ([]parquetio.RowRange, error) {
	rows := d.format.RowGroups()[g].NumRows
	whole := []parquetio.RowRange{{Group: g, To: rows}}
	if isTrue(pred) {
		return whole, nil
	}
	var columns []columnPages
	for _, c := range predicate.Columns(pred) {
		req, ok := r.fileColumn(d, c)
		if !ok {
			continue
		}
		pages, ok, err := d.format.PageStats(g, req)
		if err != nil {
			return nil, err
		}
		if ok && len(pages) > 1 {
			columns = append(columns, columnPages{column: c, pages: pages})
		}
	}
	if len(columns) == 0 {
		return whole, nil
	}
	var out []parquetio.RowRange
	bounds := pageBoundaries(columns, rows)
	for i := 0; i+1 < len(bounds); i++ {
		from, to := bounds[i], bounds[i+1]
		if pred.Test(r.stretchStats(columns, from, to)) != predicate.Might {
			continue
		}
		if n := len(out); n > 0 && out[n-1].To == from {
			out[n-1].To = to
			continue
		}
		out = append(out, parquetio.RowRange{Group: g, From: from, To: to})
	}
	return out, nil
}

// pageBoundaries are the first rows of every page of the columns, and
// the group's end, in order.
func pageBoundaries(columns []columnPages, rows int64) []int64 {
	bounds := []int64{rows}
	for _, c := range columns {
		for _, p := range c.pages {
			bounds = append(bounds, p.FirstRow)
		}
	}
	slices.Sort(bounds)
	return slices.Compact(bounds)
}

// stretchStats lays onto the read row the bounds, for rows [from, to), of
// the page of each column that holds them; other columns are unknown.
func (r *reader) stretchStats(columns []columnPages, from, to int64) predicate.Stats {
	stats := predicate.Stats{RowCount: to - from, Columns: make([]spec.ColumnStats, len(r.schema.Fields))}
	for _, c := range columns {
		i, _ := slices.BinarySearchFunc(c.pages, from, func(p parquetio.PageStats, row int64) int {
			return cmp.Compare(p.FirstRow, row)
		})
		if i == len(c.pages) || c.pages[i].FirstRow > from {
			i--
		}
		page := c.pages[i]
		if page.OnlyNulls {
			n := to - from
			stats.Columns[c.column].NullCount = &n
			continue
		}
		stats.Columns[c.column] = spec.ColumnStats{Min: page.Min, Max: page.Max}
	}
	return stats
}
