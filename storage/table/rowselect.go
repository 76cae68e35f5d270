package table

import (
	"errors"
	"io"
	"slices"

	"github.com/lakesql/lakesql/storage/parquetio"
	"github.com/lakesql/lakesql/storage/predicate"
	"github.com/lakesql/lakesql/storage/spec"
	"github.com/lakesql/lakesql/storage/vector"
)

// sparseSelection is the most rows a filter may select for a read to
// fetch them one by one: past it, reading the filter's columns first
// saves too little to pay for reading them twice.
const sparseSelection = 1024

// selectionGap is the longest run of unselected rows between two selected
// ones that a read still takes together: opening the pages of every column
// again costs more than decoding a few hundred rows.
const selectionGap = 256

// selectedRows narrows ranges of d to the rows where pred is TRUE, reading
// only the columns pred reads first, as vectors: late materialization. A
// point read then decodes one row of the other readColumns instead of a
// page of each. It keeps ranges as they are when pred selects more than
// sparseSelection rows, when pred reads as many columns as the read
// itself, or when one of pred's columns does not vectorize, or is missing
// from the file or has another type there (its values would need the
// schema's conversion first).
func (r *reader) selectedRows(d *dataFile, ranges []parquetio.RowRange, pred predicate.Predicate, readColumns int) ([]parquetio.RowRange, error) {
	pred, err := r.withoutHeldConjuncts(d, ranges, pred)
	if err != nil {
		return nil, err
	}
	columns := predicate.Columns(pred)
	pq := d.parquet()
	if isTrue(pred) || len(ranges) == 0 || len(columns) >= readColumns || pq == nil {
		return ranges, nil
	}
	requests := make([]parquetio.ColumnRequest, len(columns))
	for i, c := range columns {
		req, ok := r.fileColumn(d, c)
		if !ok || !pq.CanVectorize(req) {
			return ranges, nil
		}
		requests[i] = req
	}
	it, err := pq.NewVectorRangeIterator(requests, ranges)
	if err != nil {
		return nil, err
	}
	selected, sparse, err := r.selectRows(it, pq.RowGroups(), ranges, pred, columns)
	if err = errors.Join(err, it.Close()); err != nil || !sparse {
		return ranges, err
	}
	return selected, nil
}

// selectRows evaluates pred over the batches of it, which hold the
// values of columns over ranges, and returns the ranges of the rows it
// selects; sparse is false once they pass sparseSelection.
func (r *reader) selectRows(it *parquetio.VectorIterator, groups []parquetio.RowGroup, ranges []parquetio.RowRange, pred predicate.Predicate, columns []int) (selected []parquetio.RowRange, sparse bool, err error) {
	var (
		filter = vector.Compile(pred)
		batch  = vector.Batch{Columns: make([]*vector.Vector, len(r.schema.Fields))}
		sel    []int32
		built  selection
		k      int // the range being read
	)
	for {
		vectors, n, err := it.Next(vectorBatchRows)
		if err == io.EOF {
			return built.ranges, true, nil
		}
		if err != nil {
			return nil, false, err
		}
		position := it.Position()
		for position >= groups[ranges[k].Group].FirstRow+ranges[k].To {
			k++
		}
		g := ranges[k].Group
		batch.Len = n
		for i, c := range columns {
			batch.Columns[c] = vectors[i]
		}
		sel = filter.Select(&batch, nil, sel[:0])
		for _, i := range sel {
			built.add(g, position-groups[g].FirstRow+int64(i))
		}
		if built.rows > sparseSelection {
			return nil, false, nil
		}
	}
}

// selection gathers selected rows, in order, into row ranges, joining
// rows of one group at most selectionGap apart.
type selection struct {
	ranges []parquetio.RowRange
	rows   int
}

func (s *selection) add(group int, row int64) {
	s.rows++
	if n := len(s.ranges); n > 0 {
		last := &s.ranges[n-1]
		if last.Group == group && row-last.To <= selectionGap {
			last.To = row + 1
			return
		}
	}
	s.ranges = append(s.ranges, parquetio.RowRange{Group: group, From: row, To: row + 1})
}

// withoutHeldConjuncts drops from pred the conjuncts the statistics of
// the row groups of ranges prove TRUE for every row: on a partitioned
// table the filter of a point read keeps dt = D, which every row of the
// partition's files holds, and which would otherwise be decoded and
// compared row by row. A conjunct holds when its negation cannot be TRUE
// on any of the groups and its columns cannot be NULL (a NULL makes both
// UNKNOWN). Only which rows are fetched depends on it: every fetched row
// still passes the whole residual filter.
func (r *reader) withoutHeldConjuncts(d *dataFile, ranges []parquetio.RowRange, pred predicate.Predicate) (predicate.Predicate, error) {
	conjuncts := predicate.Conjuncts(pred)
	kept := conjuncts[:0:0]
	for _, c := range conjuncts {
		held, err := r.holdsIn(d, ranges, c)
		if err != nil {
			return nil, err
		}
		if !held {
			kept = append(kept, c)
		}
	}
	if len(kept) == len(conjuncts) {
		return pred, nil
	}
	return predicate.And(kept...), nil
}

// holdsIn reports whether conjunct c is TRUE for every row of the groups
// of ranges, by the groups' statistics.
func (r *reader) holdsIn(d *dataFile, ranges []parquetio.RowRange, c predicate.Predicate) (bool, error) {
	columns := predicate.Columns(c)
	for _, col := range columns {
		if r.schema.Fields[col].Type.Nullable {
			return false, nil
		}
	}
	negation := predicate.Not(c)
	for i, rg := range ranges {
		if i > 0 && ranges[i-1].Group == rg.Group {
			continue
		}
		stats, err := r.rowGroupStats(d, rg.Group, columns)
		if err != nil {
			return false, err
		}
		if negation.Test(stats) != predicate.Cannot {
			return false, nil
		}
	}
	return len(ranges) > 0, nil
}

// sortedKeyRows narrows ranges of d to the stretch of rows whose first
// trimmed primary-key field lies within the bounds pred's conjuncts put on
// it. Every data file of a primary-key table is sorted by its trimmed
// primary key (Paimon's merge tree sorts each file it writes, as ours
// does), so a point or short range read binary-searches the key instead of
// filtering every row of the page. It keeps ranges as they are for files
// without a primary key and when pred does not bound that field.
func (r *reader) sortedKeyRows(d *dataFile, ranges []parquetio.RowRange, pred predicate.Predicate) ([]parquetio.RowRange, error) {
	keys := d.fileSchema.TrimmedPrimaryKeys()
	pq := d.parquet()
	if len(keys) == 0 || pq == nil || isTrue(pred) || len(ranges) == 0 {
		return ranges, nil
	}
	k := d.fileSchema.FieldIndex(keys[0])
	if k < 0 {
		return ranges, nil
	}
	c := slices.IndexFunc(r.schema.Fields, func(f spec.DataField) bool { return f.ID == d.fileSchema.Fields[k].ID })
	if c < 0 {
		return ranges, nil
	}
	bounds, ok := vector.BoundsOf(pred, c)
	req, same := r.fileColumn(d, c)
	if !ok || !same {
		return ranges, nil
	}
	return pq.NarrowSorted(req, ranges, bounds)
}
